import Harness
import TestSupport
import Testing

@testable import Net

/// The names in a peer certificate's subject, as an Android TV gives its name and MAC there:
/// a common name made by our own certificate maker, and a subject with a dnQualifier made by
/// openssl (the Nexus Player's form), read by a client; a client without a certificate leaves
/// the server's reading empty.
@Suite("TLS: the peer certificate's subject")
struct TLSPeerSubjectTests {
    /// Serves `certificate` on a free loopback port and returns what a client reads of it.
    static func subjectSeen(certificatePEM: String, privateKeyPEM: String) async throws -> (
        client: TLSPeerSubject, server: TLSPeerSubject
    ) {
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let context = try TLSContext.server(
            certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM, requestClientCertificate: true)
        async let accepted = TLSConnection.accept(
            over: try await listener.accept(), context: context, deadline: .now + .seconds(30))
        let client = try await TLSConnection.connect(
            over: try await TCPConnection.connect(to: listener.address),
            context: try TLSContext.client(TLSConfiguration(trust: .selfSigned(pinned: nil))), serverName: nil,
            deadline: .now + .seconds(30))
        let server = try await accepted
        defer {
            client.close()
            server.close()
        }
        return (client.peerSubject, server.peerSubject)
    }

    @Test("a common name with slashes and spaces is read whole; no client certificate reads as empty")
    func commonName() async throws {
        let name = "atvremote/darcy/darcy/SHIELD Android TV/00:04:4B:AA:BB:CC"
        let (certificate, key) = try TLSContext.selfSignedCertificate(commonName: name)
        let seen = try await Self.subjectSeen(certificatePEM: certificate, privateKeyPEM: key)
        #expect(seen.client == TLSPeerSubject(commonName: name, dnQualifier: nil))
        #expect(seen.server == TLSPeerSubject())
    }

    @Test("openssl's subject with a dnQualifier and a common name: both are read")
    func dnQualifier() async throws {
        let directory = try TemporaryDirectory(prefix: "tls-subject")
        defer { directory.remove() }
        _ = try await ChildProcess.runChecked(
            "openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                "-subj", "/dnQualifier=fugu\\/fugu\\/Nexus Player/CN=atvremote\\/00:1A:11:22:33:44",
                "-keyout", directory.file("key.pem"), "-out", directory.file("cert.pem"),
            ])
        let seen = try await Self.subjectSeen(
            certificatePEM: try #require(FileText.read(directory.file("cert.pem"))),
            privateKeyPEM: try #require(FileText.read(directory.file("key.pem"))))
        #expect(seen.client.dnQualifier == "fugu/fugu/Nexus Player")
        #expect(seen.client.commonName == "atvremote/00:1A:11:22:33:44")
    }
}
