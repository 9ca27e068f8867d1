import CSystem
import Glibc

/// A certificate and its private key as PEM text: who this end is in a TLS handshake (a client
/// certificate the peer pins, as an Android TV pins the bridge's).
public struct TLSIdentity: Hashable, Sendable {
    public let certificatePEM: String
    public let privateKeyPEM: String

    public init(certificatePEM: String, privateKeyPEM: String) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
    }

    /// A fresh self-signed RSA certificate (SHA-256, valid 10 years).
    public static func generateRSA(commonName: String, bits: Int = 2048) throws(NetError) -> TLSIdentity {
        let (certificate, key) = try TLSContext.selfSignedCertificate(commonName: commonName, rsaBits: bits)
        return TLSIdentity(certificatePEM: certificate, privateKeyPEM: key)
    }

    /// The certificate, then the key: how the identity is kept in a file.
    public var combinedPEM: String { certificatePEM + privateKeyPEM }

    /// Reads `combinedPEM`'s text back; nil unless it holds a certificate, then its private key,
    /// and the two belong together (OpenSSL loads them as one client identity).
    public init?(combinedPEM text: String) {
        guard
            let keyStart = text.firstRange(of: "-----BEGIN PRIVATE KEY-----")?.lowerBound
                ?? text.firstRange(of: "-----BEGIN RSA PRIVATE KEY-----")?.lowerBound,
            text[..<keyStart].contains("-----BEGIN CERTIFICATE-----")
        else { return nil }
        self.init(certificatePEM: String(text[..<keyStart]), privateKeyPEM: String(text[keyStart...]))
        guard (try? TLSContext.client(TLSConfiguration(trust: .selfSigned(pinned: nil), identity: self))) != nil
        else { return nil }
    }

    /// The certificate's RSA public key; nil when it is not RSA or does not parse.
    public var rsaPublicKey: RSAPublicKey? {
        RSAPublicKey.read { csys_pem_rsa_public_key(certificatePEM, $0, $1, $2, $3) }
    }
}

/// An RSA public key's two numbers, big-endian without leading zero bytes: what the Android
/// TV pairing secret hashes, for both ends' certificates.
public struct RSAPublicKey: Equatable, Sendable {
    public let modulus: [UInt8]
    public let exponent: [UInt8]

    public init(modulus: [UInt8], exponent: [UInt8]) {
        self.modulus = modulus
        self.exponent = exponent
    }

    /// Room for keys up to 16,384 bits, the most OpenSSL makes.
    static func read(
        _ fill: (
            UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<Int>, UnsafeMutablePointer<UInt8>,
            UnsafeMutablePointer<Int>
        ) -> Int32
    ) -> RSAPublicKey? {
        var modulus = [UInt8](repeating: 0, count: 2048)
        var exponent = [UInt8](repeating: 0, count: 64)
        var modulusLength = modulus.count
        var exponentLength = exponent.count
        guard fill(&modulus, &modulusLength, &exponent, &exponentLength) == 1 else { return nil }
        return RSAPublicKey(
            modulus: Array(modulus.prefix(modulusLength)), exponent: Array(exponent.prefix(exponentLength)))
    }
}
