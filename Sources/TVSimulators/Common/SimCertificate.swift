import Net
import Support
import Wire

/// A simulated TV's self-signed certificate (Samsung 8002, LG 3001), as a server context and the
/// SHA-256 fingerprint of its DER form (what a client pins).
struct SimCertificate: Sendable {
    let context: TLSContext
    let sha256: [UInt8]

    /// A fresh EC P-256 certificate, CN = the TV's name, valid ten years (Net generates it
    /// in-process with OpenSSL: no `openssl` binary needed, and fast enough for a fleet). Made
    /// on one of Dispatch's threads (`BlockingWork`): generating the key and reading the PEM
    /// back take milliseconds of OpenSSL each, which would hold the event loop's thread and
    /// every simulated TV on it, the more so when a fleet starts at once.
    static func make(commonName: String, host: String) async throws -> SimCertificate {
        try await BlockingWork.run { Result { try makeHere(commonName: commonName, host: host) } }.get()
    }

    private static func makeHere(commonName: String, host: String) throws -> SimCertificate {
        let pair = try TLSContext.selfSignedCertificate(
            commonName: commonName, subjectAltNames: "IP:\(host)")
        let context = try TLSContext.server(
            certificatePEM: pair.certificatePEM, privateKeyPEM: pair.privateKeyPEM)
        return SimCertificate(context: context, sha256: Digest.sha256(try der(pair.certificatePEM)))
    }

    /// The DER bytes of the first certificate in PEM text.
    static func der(_ pem: String) throws -> [UInt8] {
        var inside = false
        var base64 = ""
        for line in pem.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("-----BEGIN CERTIFICATE") {
                inside = true
            } else if line.hasPrefix("-----END CERTIFICATE") {
                break
            } else if inside {
                base64 += line.filter { !$0.isWhitespace }
            }
        }
        return try Base64.decode(base64)
    }
}

/// The certificate a TLS port serves now, and the one a test replaced (for a changed-pin test
/// and the real TV coming back).
struct SimCertificates: Sendable {
    var current: SimCertificate
    var replaced: SimCertificate?

    init(_ current: SimCertificate) { self.current = current }

    /// Serves `certificate` from the next connection on.
    mutating func replace(with certificate: SimCertificate) {
        replaced = current
        current = certificate
    }

    /// Serves the replaced certificate again (they swap); nothing when none was replaced.
    mutating func restore() {
        guard let previous = replaced else { return }
        replaced = current
        current = previous
    }
}
