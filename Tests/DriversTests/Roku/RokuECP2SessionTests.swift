import Clients
import Net
import Testing
import Wire

@testable import Drivers

/// The session against a hand-made ECP-2 server that answers only what the test says.
@Suite("Roku ECP-2 session: ids, deadlines and failures", .serialized)
struct RokuECP2SessionTests {
    /// Serves one connection: the challenge, then `reply` for every request (nil: no answer).
    func withServer(
        reply: @escaping @Sendable (ECP2Message) -> ECP2Message?,
        _ body: (UInt16) async throws -> Void
    ) async throws {
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        let server = Task {
            guard let stream = try? await listener.accept(),
                let accepted = try? await WebSocketServerHandshake.accept(stream: stream, subprotocols: ["ecp-2"])
            else { return }
            let connection = accepted.connection
            try? await connection.send(
                text: ECP2Message.notify("authenticate", ["param-challenge": "abc"]).serialized())
            for await incoming in connection.incoming {
                guard case .text(let text) = incoming, let message = try? ECP2Message.parse(text) else { continue }
                if let answer = reply(message) { try? await connection.send(text: answer.serialized()) }
            }
        }
        defer {
            listener.close()
            server.cancel()
        }
        try await body(listener.address.port)
    }

    /// Generous: the whole suite shares two cores. Requests then time out after 3 s (the cap).
    static func settings() -> DriverSettings {
        DriverSettings(wolTargets: [], connectTimeout: .seconds(5), requestTimeout: .seconds(5))
    }

    @Test("the challenge answer is checked by the server; responses match their ids; silence times out")
    func requests() async throws {
        try await withServer(reply: { message in
            guard case .request(let name, let id) = message.kind else { return nil }
            switch (name, message["param-key"]) {
            case ("authenticate", _):
                let good = message["param-response"] == "tKpZwz/qXe0j9nOSK/nIiny0i0M="  // Python vector for "abc"
                return .response(name, id: id, status: good ? 200 : 401)
            case ("key-press", "Home"): return nil  // never answered
            case ("key-press", "Back"): return .response(name, id: id, status: 500, message: "broken")
            default: return .response(name, id: id, status: 202)
            }
        }) { port in
            // Under a manual clock: the silent request times out at exactly the session's
            // timeout, and nothing else waits for a deadline.
            let clock = ManualClock()
            let session: RokuECP2Session
            do {
                session = try await clock.run {
                    try await RokuECP2Session.open(host: "127.0.0.1", port: port, settings: Self.settings())
                }
            } catch {
                Issue.record("not opened: \(error)")
                return
            }
            // What the driver's link task does: the session's reader, responses to the session.
            let reader = Task {
                await session.read { text in
                    if let message = try? ECP2Message.parse(text) { await session.deliver(message) }
                }
            }
            defer { reader.cancel() }
            let accepted = try await clock.run { try await session.request("key-press", ["param-key": "Up"]) }
            #expect(accepted.status == 202)

            let timeout = await session.timeout
            #expect(timeout == .seconds(3), "the cap, below the 5 s request timeout")
            // The answered request's timer for 3 s stays armed (it checks for itself); the silent
            // one's is the next one armed for that instant.
            let armedBefore = clock.pendingDeadlines.count { $0 == timeout }
            let silent = Task {
                await clock.run { () -> (DriverError?, Duration) in
                    do throws(DriverError) {
                        _ = try await session.request("key-press", ["param-key": "Home"])
                        return (nil, clock.elapsed)
                    } catch {
                        return (error, clock.elapsed)
                    }
                }
            }
            let armed = await clock.waitForTimers { $0.count { $0 == timeout } > armedBefore }
            #expect(armed, "the silent request armed no timeout: \(clock.pendingDeadlines)")
            await clock.advance(to: timeout - .milliseconds(1))
            await clock.advance(to: timeout)
            // A hang bound in real time, should the request have armed its timer elsewhere.
            let outcome = await withDeadline(.now + .seconds(30), clock: .system) { await silent.value }
            let (timedOut, failedAt) = try #require(outcome, "the silent request never ended")
            #expect(timedOut?.kind == .timeout)
            #expect(failedAt == timeout, "timed out at \(failedAt)")

            var refused: DriverError?
            do {
                try await clock.run {
                    try await session.requests([
                        ("key-press", ["param-key": "Up"]), ("key-press", ["param-key": "Back"]),
                    ])
                }
            } catch let error as DriverError {
                refused = error
            }
            #expect(refused?.kind == .rejected)
            #expect(refused?.message.contains("status 500") == true)
            _ = try? await session.connection.close()
        }
    }

    @Test("a server that refuses the answer gives .authentication; a refused upgrade gives .refused")
    func refusals() async throws {
        try await withServer(reply: { message in
            guard case .request(let name, let id) = message.kind else { return nil }
            return .response(name, id: id, status: 401, message: "Unauthorized")
        }) { port in
            var outcome = "opened"
            do {
                _ = try await RokuECP2Session.open(host: "127.0.0.1", port: port, settings: Self.settings())
            } catch let error as RokuECP2Session.OpenError {
                if case .authentication(let message) = error { outcome = message }
            }
            #expect(outcome.contains("status 401"))
        }
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        let port = listener.address.port
        let server = Task {
            guard let stream = try? await listener.accept() else { return }
            // Older firmware: no /ecp-session.
            let reply = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            _ = try? await stream.read(maxBytes: 16 * 1024, deadline: .now + .seconds(3))
            try? await stream.write(Array(reply.utf8), deadline: .now + .seconds(3))
            stream.close()
        }
        var status: Int?
        do {
            _ = try await RokuECP2Session.open(host: "127.0.0.1", port: port, settings: Self.settings())
        } catch {
            if case .refused(let code, _) = error { status = code }
        }
        listener.close()
        await server.value
        #expect(status == 404)
    }
}
