import Harness
import TestSupport
import Testing

@testable import Net

/// A server that takes only the client certificates it has paired (as an Android TV on its
/// remote port), and the client's reading of the refusal: `certificateRefused`, in the
/// handshake under TLS 1.2, on the first read under TLS 1.3. The TLS 1.2 side is checked with
/// openssl s_client, an independent client.
@Suite("TLS: a server that pins its clients; the client told it was refused", .takesTurns)
struct TLSClientPinningTests {
    static let paired = TestIdentities.bridge
    static let stranger = TestIdentities.stranger
    static let server = TestIdentities.server

    /// A server on a free loopback port answering "pong" to one read, taking only the paired
    /// client's certificate; `outcome` gets what each accept ended in.
    final class PinningServer: Sendable {
        let listener: TCPListener
        let task: Task<[String], Never>

        init(connections: Int, fingerprint: [UInt8]) throws {
            let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
            let context = try TLSContext.server(
                certificatePEM: TLSClientPinningTests.server.certificatePEM,
                privateKeyPEM: TLSClientPinningTests.server.privateKeyPEM, requestClientCertificate: true)
            self.listener = listener
            task = Task {
                var outcomes: [String] = []
                for _ in 0..<connections {
                    guard let tcp = try? await listener.accept() else { break }
                    do {
                        let tls = try await TLSConnection.accept(
                            over: tcp, context: context, deadline: .now + .seconds(30),
                            clientCertificates: [fingerprint])
                        _ = try await tls.read(maxBytes: 16, deadline: .now + .seconds(30))
                        try await tls.write(Array("pong".utf8), deadline: .now + .seconds(30))
                        tls.close()
                        outcomes.append("served")
                    } catch {
                        outcomes.append("refused")
                    }
                }
                return outcomes
            }
        }
    }

    /// The paired certificate's fingerprint, as a server that asks for any certificate sees it.
    static func pairedFingerprint() async throws -> [UInt8] {
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let context = try TLSContext.server(
            certificatePEM: server.certificatePEM, privateKeyPEM: server.privateKeyPEM, requestClientCertificate: true)
        async let accepted = TLSConnection.accept(
            over: try await listener.accept(), context: context, deadline: .now + .seconds(30))
        let client = try await TLSConnection.connect(
            over: try await TCPConnection.connect(to: listener.address),
            context: try TLSContext.client(TLSConfiguration(trust: .selfSigned(pinned: nil), identity: paired)),
            serverName: nil, deadline: .now + .seconds(30))
        let serverSide = try await accepted
        defer {
            client.close()
            serverSide.close()
        }
        return try #require(serverSide.peerCertificateSHA256)
    }

    /// One exchange as `identity`: the answer, or the error that ended it.
    static func exchange(_ address: SocketAddress, as identity: TLSIdentity?) async -> Result<String, NetError> {
        do {
            let tls = try await TLSConnection.connect(
                over: try await TCPConnection.connect(to: address),
                context: try TLSContext.client(TLSConfiguration(trust: .selfSigned(pinned: nil), identity: identity)),
                serverName: nil, deadline: .now + .seconds(30))
            defer { tls.close() }
            try await tls.write(Array("ping".utf8), deadline: .now + .seconds(30))
            let answer = try await tls.read(maxBytes: 16, deadline: .now + .seconds(30))
            return .success(String(decoding: answer, as: UTF8.self))
        } catch let error as NetError {
            return .failure(error)
        } catch {
            return .failure(NetError(.system, "exchange", "\(error)"))
        }
    }

    @Test("TLS 1.3: the paired client is served; a stranger and a client without a certificate get certificateRefused")
    func tls13() async throws {
        let server = try PinningServer(connections: 3, fingerprint: try await Self.pairedFingerprint())
        defer { server.listener.close() }
        let address = server.listener.address
        #expect(try await Self.exchange(address, as: Self.paired).get() == "pong")
        for identity in [Self.stranger, nil] {
            let result = await Self.exchange(address, as: identity)
            guard case .failure(let error) = result else {
                Issue.record("served \(identity?.certificatePEM.count ?? 0)")
                continue
            }
            #expect(error.kind == .certificateRefused, "\(error)")
        }
        #expect(await server.task.value == ["served", "refused", "refused"])
    }

    @Test(
        "TLS 1.2, openssl s_client as the client: the stranger gets alert 46 in the handshake, the paired one is served"
    )
    func tls12() async throws {
        let server = try PinningServer(connections: 2, fingerprint: try await Self.pairedFingerprint())
        defer { server.listener.close() }
        let directory = try TemporaryDirectory(prefix: "tls-pinning")
        defer { directory.remove() }
        for (name, identity) in [("stranger", Self.stranger), ("paired", Self.paired)] {
            try FileText.write(identity.certificatePEM, to: directory.file(name + ".pem"))
            try FileText.write(identity.privateKeyPEM, to: directory.file(name + ".key"), mode: 0o600)
        }
        try FileText.write("ping", to: directory.file("ping"))
        let connect = "127.0.0.1:\(server.listener.address.port)"
        let stranger = try await ChildProcess.run(
            "openssl",
            [
                "s_client", "-connect", connect, "-tls1_2", "-cert", directory.file("stranger.pem"), "-key",
                directory.file("stranger.key"),
            ], stdin: .file(directory.file("ping")))
        #expect((stranger.error + stranger.output).contains("alert number 46"), "\(stranger.error)")
        let paired = try await ChildProcess.run(
            "openssl",
            [
                "s_client", "-connect", connect, "-tls1_2", "-quiet", "-cert", directory.file("paired.pem"), "-key",
                directory.file("paired.key"),
            ], stdin: .file(directory.file("ping")))
        #expect(paired.output.contains("pong"), "\(paired.error)")
        #expect(await server.task.value == ["refused", "served"])
    }
}
