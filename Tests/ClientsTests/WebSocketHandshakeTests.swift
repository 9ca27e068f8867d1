import Clients
import Harness
import Net
import Testing
import Wire

@Suite("WebSocket opening handshake: refusals and invalid answers")
struct WebSocketHandshakeTests {
    /// Connects to a server that answers `answer(key)` and returns the error.
    private func failure(
        _ answer: @escaping @Sendable (String) -> [UInt8], subprotocols: [String] = []
    )
        async throws -> WebSocketError?
    {
        let server = try LoopbackServer.scripted(answer: answer, after: { _ in })
        defer { server.stop() }
        return try await within(10) { () async -> WebSocketError? in
            do {
                let connected = try await WebSocketClient.connect(
                    url: server.wsURL + "?token=secret", subprotocols: subprotocols,
                    handshakeTimeout: .seconds(2))
                _ = try? await connected.connection.close()
                return nil
            } catch {
                return error as? WebSocketError
            }
        }
    }

    @Test("a 403 answer is reported with its status and body, and without the URL's query")
    func forbidden() async throws {
        let error = try await failure { _ in
            Array("HTTP/1.1 403 Forbidden\r\nContent-Length: 22\r\n\r\nnot allowed\r\nfrom here".utf8)
        }
        #expect(error?.kind == .handshake)
        #expect(error?.status == 403)
        #expect(
            error?.message.contains("the server answered 403 Forbidden: not allowed  from here") == true)
        #expect(error?.message.contains("secret") == false)
    }

    @Test("a plain HTTP server (200 OK) is not a WebSocket server")
    func notSwitching() async throws {
        let error = try await failure { _ in
            Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi".utf8)
        }
        #expect(error?.kind == .handshake)
        #expect(error?.message.contains("the server answered 200 OK: hi") == true)
    }

    @Test("a wrong Sec-WebSocket-Accept is refused")
    func wrongAccept() async throws {
        let error = try await failure { key in
            switchingProtocols(key: key, accept: "dGhlIHNhbXBsZSBub25jZQ==")
        }
        #expect(error?.kind == .handshake)
        #expect(error?.message.contains("Sec-WebSocket-Accept does not match") == true)
    }

    @Test("a 101 without Upgrade: websocket is refused")
    func missingUpgrade() async throws {
        let error = try await failure { key in
            let accept = WebSocketKey.accept(for: key, sha1: Digest.sha1)
            return Array(
                "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n\r\n"
                    .utf8)
        }
        #expect(error?.message.contains("Upgrade: websocket") == true)
    }

    @Test("Upgrade and Connection tokens compare case-insensitively")
    func tokensIgnoreCase() async throws {
        let error = try await failure { key in
            let accept = WebSocketKey.accept(for: key, sha1: Digest.sha1)
            return Array(
                "HTTP/1.1 101 OK\r\nupgrade: WebSocket\r\nconnection: keep-alive, UPGRADE\r\nsec-websocket-accept: \(accept)\r\n\r\n"
                    .utf8)
        }
        #expect(error == nil)
    }

    @Test("a subprotocol we did not offer is refused")
    func foreignSubprotocol() async throws {
        let error = try await failure(
            { switchingProtocols(key: $0, subprotocol: "chat") }, subprotocols: ["ecp-2"])
        #expect(error?.message.contains("which we did not offer") == true)
    }

    @Test("garbage instead of HTTP, and a server that closes without answering")
    func garbageAndSilence() async throws {
        let garbage = try await failure { _ in Array("SSH-2.0-OpenSSH_9.6\r\n\r\n".utf8) }
        #expect(garbage?.kind == .handshake)
        #expect(garbage?.message.contains("invalid handshake answer") == true)
        let silent = try await failure { _ in [] }
        #expect(silent?.message.contains("closed the connection without answering") == true)
    }

    @Test("a server that never answers hits the handshake timeout")
    func handshakeTimeout() async throws {
        let server = try LoopbackServer.start { stream in try? await Task.sleep(for: .seconds(30)) }
        defer { server.stop() }
        try await within(20) {
            let started = ContinuousClock.now
            await #expect {
                try await WebSocketClient.connect(url: server.wsURL, handshakeTimeout: .milliseconds(300))
            } throws: { error in
                (error as? WebSocketError)?.kind == .timeout
            }
            // The server stays silent for 30 s: ending in under a third of that is the client's
            // own timeout, with room for the suite's start, which has held this test 2 s.
            #expect(ContinuousClock.now - started < .seconds(10))
        }
    }

    @Test("nothing listening: a connect error; a bad URL: an invalid argument")
    func connectAndArgumentErrors() async throws {
        // Held, not listening, for the whole test: refused, and no listener can take it meanwhile.
        let reserved = try ReservedTCPPort(host: "127.0.0.1")
        defer { reserved.release() }
        let port = reserved.port
        await #expect { try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/") } throws: {
            ($0 as? WebSocketError)?.kind == .connect
        }
        await #expect { try await WebSocketClient.connect(url: "http://127.0.0.1:\(port)/") } throws: {
            ($0 as? WebSocketError)?.kind == .invalidArgument
        }
        await #expect {
            try await WebSocketClient.connect(url: "ws://127.0.0.1:1/", subprotocols: ["a b"])
        } throws: {
            ($0 as? WebSocketError)?.kind == .invalidArgument
        }
    }
}
