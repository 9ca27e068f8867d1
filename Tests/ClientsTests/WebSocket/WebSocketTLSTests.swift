import Clients
import Harness
import Net
import Testing
import Wire

@Suite("WebSocket over TLS (wss) with a self-signed certificate")
struct WebSocketTLSTests {
    @Test("the certificate's SHA-256 is reported, equal to what the openssl command computes")
    func fingerprint() async throws {
        let (certificate, key) = try TLSContext.selfSignedCertificate(
            commonName: "Samsung TV", subjectAltNames: nil)
        let server = try LoopbackServer.echo(
            tls: TLSContext.server(certificatePEM: certificate, privateKeyPEM: key))
        defer { server.stop() }
        let expected = try await opensslFingerprint(certificatePEM: certificate)
        #expect(expected.count == 32)
        // The client's handshake and close deadlines on a clock that never moves (the server
        // keeps real time): a starved core cannot make them pass; `within` bounds a hang.
        try await within {
            try await ManualClock().run {
                let url =
                    "wss://127.0.0.1:\(server.port)/api/v2/channels/samsung.remote.control?name=dHYybXF0dA=="
                let connected = try await WebSocketClient.connect(
                    url: url, tls: TLSConfiguration(trust: .selfSigned(pinned: nil)), connectTimeout: .seconds(30),
                    handshakeTimeout: .seconds(30))
                #expect(connected.peerCertificateSHA256 == expected)
                try await connected.connection.send(text: "over TLS")
                var events = connected.connection.incoming.makeAsyncIterator()
                #expect(await events.next() == .text("over TLS"))
                #expect(try await connected.connection.close().wasClean)

                // Pinned: the same certificate passes, another one fails with certificateChanged.
                let pinned = try await WebSocketClient.connect(
                    url: url, tls: TLSConfiguration(trust: .selfSigned(pinned: expected)), connectTimeout: .seconds(30),
                    handshakeTimeout: .seconds(30))
                _ = try await pinned.connection.close()
                var wrong = expected
                wrong[0] ^= 0xFF
                await #expect {
                    try await WebSocketClient.connect(
                        url: url, tls: TLSConfiguration(trust: .selfSigned(pinned: wrong)),
                        connectTimeout: .seconds(30), handshakeTimeout: .seconds(30))
                } throws: { ($0 as? WebSocketError)?.kind == .certificateChanged }
                // The default trust (system CAs) refuses a self-signed certificate.
                await #expect {
                    try await WebSocketClient.connect(
                        url: url, connectTimeout: .seconds(30), handshakeTimeout: .seconds(30))
                } throws: {
                    ($0 as? WebSocketError)?.kind == .tls
                }
            }
        }
    }

    /// `openssl x509 -fingerprint -sha256`: computed independently of our OpenSSL binding.
    private func opensslFingerprint(certificatePEM: String) async throws -> [UInt8] {
        let result = try await ChildProcess.runChecked(
            "openssl", ["x509", "-noout", "-fingerprint", "-sha256"], stdin: .text(certificatePEM))
        let hex = result.output.split(separator: "=").last.map(String.init) ?? ""
        return hex.split(separator: ":").compactMap { UInt8($0.filter { !$0.isWhitespace }, radix: 16) }
    }
}
