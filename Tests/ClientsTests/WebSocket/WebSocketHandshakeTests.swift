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
        // The handshake timeout is virtual and time stands still: the answer decides the outcome,
        // never how soon a loaded machine got round to sending it.
        let clock = ManualClock()
        return try await within { () async -> WebSocketError? in
            await clock.run {
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

    @Test("a server that never answers hits the handshake timeout at exactly 300 ms")
    func handshakeTimeout() async throws {
        let server = try LoopbackServer.start { stream in try? await Task.sleep(for: .seconds(60)) }
        defer { server.stop() }
        let clock = ManualClock()
        try await within {
            let connecting = Task {
                try await clock.run {
                    try await WebSocketClient.connect(url: server.wsURL, handshakeTimeout: .milliseconds(300))
                }
            }
            #expect(await clock.waitForTimer(at: .milliseconds(300)), "\(clock.pendingDeadlines)")
            await clock.advance(to: .milliseconds(300) - .nanoseconds(1))
            #expect(clock.pendingDeadlines.first == .milliseconds(300))
            await clock.advance(to: .milliseconds(300))
            await #expect {
                _ = try await connecting.value
            } throws: { error in
                (error as? WebSocketError)?.kind == .timeout
            }
            #expect(clock.elapsed == .milliseconds(300))
        }
    }

    @Test("nothing listening: a connect error; a bad URL: an invalid argument")
    func connectAndArgumentErrors() async throws {
        // Held, not listening, for the whole test: refused, and no listener can take it meanwhile.
        let reserved = try ReservedTCPPort(host: "127.0.0.1")
        defer { reserved.release() }
        let port = reserved.port
        await #expect {
            try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(port)/", connectTimeout: .seconds(30), handshakeTimeout: .seconds(30))
        } throws: {
            ($0 as? WebSocketError)?.kind == .connect
        }
        await #expect {
            try await WebSocketClient.connect(
                url: "http://127.0.0.1:\(port)/", connectTimeout: .seconds(30), handshakeTimeout: .seconds(30))
        } throws: {
            ($0 as? WebSocketError)?.kind == .invalidArgument
        }
        await #expect {
            try await WebSocketClient.connect(
                url: "ws://127.0.0.1:1/", subprotocols: ["a b"], connectTimeout: .seconds(30),
                handshakeTimeout: .seconds(30))
        } throws: {
            ($0 as? WebSocketError)?.kind == .invalidArgument
        }
    }
}
