import Harness
import TestSupport
import Testing

@testable import Net

/// A client certificate held in memory (`TLSConfiguration.identity`), as the bridge will
/// present its own to an Android TV, and the RSA public keys both ends read from each other's
/// certificates (what that TV's pairing secret hashes). Checked against openssl's own reading
/// of the same certificate and against `openssl s_server -Verify`, which refuses a client
/// without one.
@Suite("TLS: a client identity and RSA public keys", .takesTurns)
struct TLSClientIdentityTests {
    static let identity = try! TLSIdentity.generateRSA(commonName: "tv2mqtt-test")

    @Test("a generated identity is RSA-2048 and its key is the modulus openssl reads from the certificate")
    func generated() async throws {
        let key = try #require(Self.identity.rsaPublicKey)
        #expect(key.modulus.count == 256 && key.modulus[0] & 0x80 != 0)
        #expect(key.exponent == [0x01, 0x00, 0x01])
        let directory = try TemporaryDirectory(prefix: "tls-identity")
        defer { directory.remove() }
        try FileText.write(Self.identity.certificatePEM, to: directory.file("cert.pem"))
        let read = try await ChildProcess.runChecked(
            "openssl", ["x509", "-noout", "-modulus", "-in", directory.file("cert.pem")])
        let hex = key.modulus.map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined()
        #expect(read.output.trimmingWhitespace() == "Modulus=" + hex)
        #expect(TLSIdentity(certificatePEM: "not a certificate", privateKeyPEM: "").rsaPublicKey == nil)
    }

    @Test("both ends read the other's RSA key: our client with an identity against our server that asks for one")
    func bothEnds() async throws {
        let server = try TLSIdentity.generateRSA(commonName: "simulated-tv")
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let context = try TLSContext.server(
            certificatePEM: server.certificatePEM, privateKeyPEM: server.privateKeyPEM, requestClientCertificate: true)
        async let accepted = TLSConnection.accept(over: try await listener.accept(), context: context, deadline: nil)
        let client = try await TLSConnection.connect(
            over: try await TCPConnection.connect(to: listener.address),
            context: try TLSContext.client(TLSConfiguration(trust: .selfSigned(pinned: nil), identity: Self.identity)),
            serverName: nil, deadline: nil)
        let serverSide = try await accepted
        #expect(client.peerRSAPublicKey == server.rsaPublicKey)
        #expect(serverSide.peerRSAPublicKey == Self.identity.rsaPublicKey)
        client.close()
        serverSide.close()
    }

    @Test("openssl s_server -Verify 1 accepts the client with its identity and refuses it without")
    func requiredByOpenSSL() async throws {
        let directory = try TemporaryDirectory(prefix: "tls-identity")
        defer { directory.remove() }
        let server = try TLSIdentity.generateRSA(commonName: "s_server")
        try FileText.write(server.certificatePEM, to: directory.file("cert.pem"))
        try FileText.write(server.privateKeyPEM, to: directory.file("key.pem"), mode: 0o600)
        try FileText.write(Self.identity.certificatePEM, to: directory.file("client.pem"))
        let port = try FreePort.tcp()
        let process = try await ChildProcess.spawn(
            "openssl",
            [
                "s_server", "-accept", "127.0.0.1:\(port)", "-cert", directory.file("cert.pem"), "-key",
                directory.file("key.pem"), "-Verify", "1", "-CAfile", directory.file("client.pem"), "-www",
            ], stdout: .discard, stderr: .discard)
        defer { process.kill() }
        let address = try SocketAddress(ip: "127.0.0.1", port: port)
        let listening = await waitUntil(interval: .milliseconds(50)) {
            guard let probe = try? await TCPConnection.connect(to: address) else { return false }
            probe.close()
            return true
        }
        try #require(listening, "openssl s_server did not start")
        let with = try await Self.exchange(
            address, TLSConfiguration(trust: .selfSigned(pinned: nil), identity: Self.identity))
        #expect(with, "refused with the client certificate")
        let without = try await Self.exchange(address, TLSConfiguration(trust: .selfSigned(pinned: nil)))
        #expect(!without, "accepted without a client certificate")
    }

    /// Whether s_server answers a request (`-www`: its status page) after the handshake.
    static func exchange(_ address: SocketAddress, _ configuration: TLSConfiguration) async throws -> Bool {
        let tcp = try await TCPConnection.connect(to: address)
        guard
            let tls = try? await TLSConnection.connect(
                over: tcp, context: try TLSContext.client(configuration), serverName: nil,
                deadline: .now + .seconds(30))
        else { return false }
        defer { tls.close() }
        // In TLS 1.3 the server judges the client's certificate after the client's handshake is
        // done: a refusal comes as an alert on the first read.
        try? await tls.write(Array("GET / HTTP/1.0\r\n\r\n".utf8), deadline: .now + .seconds(30))
        let read = try? await tls.read(maxBytes: 64, deadline: .now + .seconds(30))
        return read.map { String(decoding: $0, as: UTF8.self).hasPrefix("HTTP/1.0 200") } ?? false
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }

    fileprivate func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
