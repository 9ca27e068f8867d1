import Net
import TVModel
import Wire

/// The code an Android TV shows while pairing: six hexadecimal digits, three bytes. The secret
/// the TV expects is SHA-256 over the client's RSA modulus and exponent, the TV's, and the
/// code's last two bytes; the code's first byte is the secret's first byte, a checksum that
/// catches a mistyped code before anything is sent (the TV would close and show a new one).
struct AndroidTVPairingCode: Equatable, Sendable {
    let bytes: [UInt8]

    /// The form the vendor declares for its PINs.
    static let form = PairingPIN.sixHexDigits

    /// Upper or lower case.
    /// - Throws: `rejected`, saying what a code looks like.
    init(_ text: String) throws(DriverError) {
        guard Self.form.accepts(text), let bytes = HexDigits.bytes(Array(text.utf8)) else {
            throw DriverError(.rejected, Self.form.refusal)
        }
        self.bytes = bytes
    }

    /// The secret to send.
    /// - Throws: `unauthorized` when the checksum does not match: the code was mistyped, and
    ///   the TV still waits for the right one.
    func secret(client: RSAPublicKey, server: RSAPublicKey) throws(DriverError) -> [UInt8] {
        let hash = Digest.sha256(
            client.modulus + client.exponent + server.modulus + server.exponent + bytes.dropFirst())
        guard hash[0] == bytes[0] else {
            throw DriverError(
                .unauthorized, "that is not the code the TV shows (its check digits do not match): type it again")
        }
        return hash
    }
}
