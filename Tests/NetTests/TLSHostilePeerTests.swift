import Glibc
import Harness
import TestSupport
import Testing

@testable import Net

/// A hostile TLS server (`openssl s_server` on loopback) that would make the client compute
/// a finite-field Diffie-Hellman exchange over a huge group on the one thread every TV
/// shares: the client offers elliptic-curve key exchange only, so the handshake is refused
/// at once, and the thread is not held meanwhile.
@Suite("TLS: a hostile server cannot choose a huge DH group", .takesTurns)
struct TLSHostilePeerTests {
    /// Starts `openssl s_server` with `arguments` and an RSA certificate on a free loopback port.
    static func withServer(
        _ arguments: (_ directory: TemporaryDirectory) -> [String], _ body: (UInt16) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory(prefix: "tls-hostile")
        defer { directory.remove() }
        _ = try await ChildProcess.runChecked(
            "openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", directory.file("key.pem"), "-out",
                directory.file("cert.pem"), "-subj", "/CN=hostile", "-days", "1",
            ])
        _ = try await ChildProcess.runChecked(
            "openssl",
            [
                "genpkey", "-genparam", "-algorithm", "DH", "-pkeyopt", "group:ffdhe8192", "-out",
                directory.file("dh.pem"),
            ])
        let port = try FreePort.tcp()
        let server = try await ChildProcess.spawn(
            "openssl",
            [
                "s_server", "-accept", "127.0.0.1:\(port)", "-cert", directory.file("cert.pem"), "-key",
                directory.file("key.pem"), "-quiet",
            ] + arguments(directory), stdout: .discard, stderr: .discard)
        defer { server.kill() }
        let address = try SocketAddress(ip: "127.0.0.1", port: port)
        let listening = await waitUntil(timeout: .seconds(30), interval: .milliseconds(50)) {
            guard let probe = try? await TCPConnection.connect(to: address) else { return false }
            probe.close()
            return true
        }
        try #require(listening, "openssl s_server did not start")
        try await body(port)
    }

    /// Connects with a TV's trust (any certificate) while a ticker on the same one-at-a-time
    /// executor measures how late its 10 ms sleeps wake: the longest time the handshake held
    /// the thread. Returns whether the handshake succeeded and that stall.
    static func handshake(port: UInt16) async throws -> (connected: Bool, stall: Duration) {
        let (connected, stall) = await OneAtATimeExecutor().measureStall(sleep: { try? await EventLoop.sleep(for: $0) })
        {
            () -> Bool in
            guard let tcp = try? await TCPConnection.connect(to: SocketAddress(ip: "127.0.0.1", port: port)),
                let context = try? TLSContext.client(TLSConfiguration(trust: .selfSigned(pinned: nil)))
            else { return false }
            let secure = try? await TLSConnection.connect(
                over: tcp, context: context, serverName: nil, deadline: .now + .seconds(20))
            secure?.close()
            return secure != nil
        }
        print("TLS handshake with a hostile server on port \(port): connected \(connected), longest stall \(stall)")
        return (connected, stall)
    }

    @Test("TLS 1.2 offering only DHE over ffdhe8192: refused before any DH work")
    func dheOnly() async throws {
        try await Self.withServer({
            ["-tls1_2", "-cipher", "DHE-RSA-AES128-GCM-SHA256", "-dhparam", $0.file("dh.pem")]
        }) { port in
            let (connected, stall) = try await Self.handshake(port: port)
            #expect(!connected, "the client accepted a finite-field DHE suite")
            // Refused before any DH work: the stall is printed (about a millisecond), not
            // asserted, since a test measures the code and not the machine.
            _ = stall
        }
    }

    @Test("TLS 1.3 accepting only the ffdhe8192 group: refused (the client offers elliptic curves only)")
    func finiteFieldGroupOnly() async throws {
        try await Self.withServer({ _ in ["-tls1_3", "-groups", "ffdhe8192"] }) { port in
            let (connected, stall) = try await Self.handshake(port: port)
            #expect(!connected, "the client offered a finite-field group")
            _ = stall
        }
    }

    @Test("one client context per trust mode: connections with other pins share it")
    func sharedClientContext() throws {
        let first = try TLSContext.client(
            TLSConfiguration(trust: .selfSigned(pinned: [UInt8](repeating: 1, count: 32))))
        let second = try TLSContext.client(
            TLSConfiguration(trust: .selfSigned(pinned: [UInt8](repeating: 2, count: 32))))
        let none = try TLSContext.client(TLSConfiguration(trust: .none))
        let again = try TLSContext.client(TLSConfiguration(trust: .none))
        #expect(first.context == second.context, "a new SSL_CTX per pin")
        #expect(none.context == again.context, "a new SSL_CTX per connection")
        #expect(first.trust != second.trust, "each keeps its own pin")
    }
}
