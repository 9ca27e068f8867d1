import Glibc
import Harness
import TestSupport
import Testing

@testable import Net

/// A TLS echo server with a fresh self-signed certificate for 127.0.0.1.
struct TLSEchoServer {
    let listener: TCPListener
    let certificatePEM: String
    let task: Task<Void, Never>

    var address: SocketAddress { listener.address }

    static func start(subjectAltNames: String = "IP:127.0.0.1,DNS:localhost") throws -> TLSEchoServer {
        let (certificate, key) = try TLSContext.selfSignedCertificate(
            commonName: "tvsim", subjectAltNames: subjectAltNames)
        let context = try TLSContext.server(certificatePEM: certificate, privateKeyPEM: key)
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                while let connection = try? await listener.accept() {
                    group.addTask {
                        guard
                            let tls = try? await TLSConnection.accept(
                                over: connection, context: context, deadline: .now + .seconds(60))
                        else {
                            return
                        }
                        while let bytes = try? await tls.read(), !bytes.isEmpty { try? await tls.write(bytes) }
                        tls.close()
                    }
                }
                group.cancelAll()
            }
        }
        return TLSEchoServer(listener: listener, certificatePEM: certificate, task: task)
    }

    func stop() {
        listener.close()
        task.cancel()
    }

    /// The certificate's DER SHA-256, computed by the openssl CLI (independent of our code).
    func fingerprintFromOpenSSLCommand() async throws -> [UInt8] {
        let path = "/tmp/tv2mqtt-test-cert-\(getpid())-\(address.port).pem"
        try writeFile(path, certificatePEM)
        defer { unlink(path) }
        let output = try await ChildProcess.runChecked(
            "openssl", ["x509", "-in", path, "-noout", "-fingerprint", "-sha256"]
        )
        .output
        let hex = output.split(separator: "=").last.map(String.init) ?? ""
        return hex.split(separator: ":").compactMap { UInt8(String($0.filter { !$0.isWhitespace }), radix: 16) }
    }
}

func writeFile(_ path: String, _ text: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { throw NetError.errno(errno, "open \(path)") }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

@Suite("TLS over the event loop")
struct TLSTests {
    @Test("a self-signed server is accepted in pin mode and its fingerprint reported")
    func selfSignedReportsFingerprint() async throws {
        let server = try TLSEchoServer.start()
        defer { server.stop() }
        let context = try TLSContext.client(TLSConfiguration(trust: .selfSigned(pinned: nil)))
        let tcp = try await TCPConnection.connect(to: server.address)
        let tls = try await TLSConnection.connect(
            over: tcp, context: context, serverName: "127.0.0.1", deadline: .now + .seconds(60))
        defer { tls.close() }
        let fingerprint = try await server.fingerprintFromOpenSSLCommand()
        #expect(tls.peerCertificateSHA256 == fingerprint)
        try await tls.write(Array("ping".utf8))
        #expect(try await readExactly(tls, 4) == Array("ping".utf8))
    }

    @Test("the right pin connects; a different one is reported as a changed certificate")
    func pinning() async throws {
        let server = try TLSEchoServer.start()
        defer { server.stop() }
        let pin = try await server.fingerprintFromOpenSSLCommand()
        let good = try TLSContext.client(TLSConfiguration(trust: .selfSigned(pinned: pin)))
        let tls = try await TLSConnection.connect(
            over: try await TCPConnection.connect(to: server.address), context: good, serverName: nil,
            deadline: .now + .seconds(60))
        tls.close()
        var wrong = pin
        wrong[0] ^= 0xFF
        let bad = try TLSContext.client(TLSConfiguration(trust: .selfSigned(pinned: wrong)))
        await #expect {
            _ = try await TLSConnection.connect(
                over: try await TCPConnection.connect(to: server.address), context: bad, serverName: nil,
                deadline: .now + .seconds(60))
        } throws: { error in
            (error as? NetError)?.kind == .certificateChanged
        }
    }

    /// Issue 13 item 5: a pinned connection to a peer that sent no certificate (an anonymous
    /// cipher suite) used to pass the pin check, since there was nothing to compare.
    @Test("the pin check fails closed: no certificate from the peer is not a match")
    func pinWithoutCertificate() throws {
        let pin = [UInt8](repeating: 0xAB, count: 32)
        var failure: NetError?
        do {
            try TLSConnection.checkPin(pin, presented: nil, operation: "TLS handshake with 127.0.0.1:8002")
        } catch {
            failure = error
        }
        #expect(failure?.kind == .certificateChanged)
        #expect(failure?.detail.contains("no certificate") == true, "\(String(describing: failure))")
        try TLSConnection.checkPin(pin, presented: pin, operation: "same")
        try TLSConnection.checkPin(nil, presented: nil, operation: "no pin: nothing to check")
    }

    @Test("verification against a CA file checks the IP address in the certificate")
    func caFileAndHostCheck() async throws {
        let server = try TLSEchoServer.start()
        defer { server.stop() }
        let caPath = "/tmp/tv2mqtt-test-ca-\(getpid()).pem"
        try writeFile(caPath, server.certificatePEM)
        defer { unlink(caPath) }
        let context = try TLSContext.client(TLSConfiguration(trust: .certificateAuthority(file: caPath)))
        let tls = try await TLSConnection.connect(
            over: try await TCPConnection.connect(to: server.address), context: context, serverName: "127.0.0.1",
            deadline: .now + .seconds(60))
        try await tls.write([1, 2, 3])
        #expect(try await readExactly(tls, 3) == [1, 2, 3])
        tls.close()
        await #expect {
            _ = try await TLSConnection.connect(
                over: try await TCPConnection.connect(to: server.address), context: context,
                serverName: "broker.example")
        } throws: { error in
            let netError = error as? NetError
            return netError?.kind == .tls && netError?.detail.contains("certificate verify failed") == true
        }
    }

    @Test("the system CA store refuses a self-signed certificate")
    func systemStoreRefusesSelfSigned() async throws {
        let server = try TLSEchoServer.start()
        defer { server.stop() }
        let context = try TLSContext.client(TLSConfiguration(trust: .systemDefault))
        await #expect {
            _ = try await TLSConnection.connect(
                over: try await TCPConnection.connect(to: server.address), context: context, serverName: "localhost",
                deadline: .now + .seconds(60))
        } throws: { error in
            (error as? NetError)?.detail.contains("certificate verify failed") == true
        }
    }

    @Test("1 MiB each way with a concurrent reader survives record boundaries")
    func largeTransfer() async throws {
        let server = try TLSEchoServer.start()
        defer { server.stop() }
        let context = try TLSContext.client(TLSConfiguration(trust: .none))
        let tls = try await TLSConnection.connect(
            over: try await TCPConnection.connect(to: server.address), context: context, serverName: nil,
            deadline: .now + .seconds(60))
        defer { tls.close() }
        let payload = try await offTheLoop { (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) } }
        async let received = readExactly(tls, payload.count)
        for start in stride(from: 0, to: payload.count, by: 70_000) {
            try await tls.write(Array(payload[start..<min(payload.count, start + 70_000)]))
        }
        #expect(try await received == payload)
    }

    @Test("a plain-TCP peer fails the handshake with a TLS error, not a hang")
    func plainPeerFailsHandshake() async throws {
        try await withEchoServer { address in
            let context = try TLSContext.client(TLSConfiguration(trust: .none))
            await #expect(throws: NetError.self) {
                _ = try await TLSConnection.connect(
                    over: try await TCPConnection.connect(to: address), context: context, serverName: nil,
                    deadline: .now + .seconds(2))
            }
        }
    }
}
