import Net

/// RSA-2048 certificates and keys made once with openssl (`Tests/Fixtures/tls`), for tests
/// that need a client or server identity: generating one in a test would hold the executor
/// every other test shares.
public enum TestIdentities {
    public static let bridge = load("bridge")
    public static let stranger = load("stranger")
    public static let server = load("server")

    private static func load(_ name: String) -> TLSIdentity {
        TLSIdentity(
            certificatePEM: (try? TestFixtures.text("tls/\(name)-cert.pem")) ?? "",
            privateKeyPEM: (try? TestFixtures.text("tls/\(name)-key.pem")) ?? "")
    }
}
