import Clients
import Harness
import Net
import Synchronization
import TestSupport
import Testing
import Wire

/// The HTTP client against a small server written here, on loopback: connections kept alive
/// and reused, one the device closed replaced, deadlines, the size cap. Tests that are not
/// about a deadline run on a frozen clock: each request ends in what the server sent.
@Suite("HTTP client")
struct HTTPClientTests {
    /// Answers every request on a connection with `body`; `closeAfter` closes the connection
    /// after that many answers on it. Counts accepted connections.
    final class Server: Sendable {
        final class Count: Sendable {
            let value = Mutex(0)
            func add() { value.withLock { $0 += 1 } }
            var current: Int { value.withLock { $0 } }
        }

        let listener: TCPListener
        let accepted = Count()
        private let task = Mutex<Task<Void, Never>?>(nil)

        /// `closeOdd`: the 1st, 3rd, 5th… connection is closed after its first answer (a device
        /// that restarted), the others stay open.
        init(
            body: [UInt8] = Array("ok".utf8), contentLength: Int? = nil, closeAfter: Int? = nil, silent: Bool = false,
            closeOdd: Bool = false
        ) throws {
            listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
            let listener = listener
            let accepted = accepted
            let running = Task {
                await withDiscardingTaskGroup { group in
                    while let connection = try? await listener.accept() {
                        accepted.add()
                        let close = closeOdd && accepted.current % 2 == 1 ? 1 : closeAfter
                        group.addTask {
                            await Self.serve(
                                connection, body: body, contentLength: contentLength, closeAfter: close,
                                silent: silent)
                        }
                    }
                }
            }
            task.withLock { $0 = running }
        }

        static func serve(
            _ connection: TCPConnection, body: [UInt8], contentLength: Int?, closeAfter: Int?, silent: Bool
        ) async {
            defer { connection.close() }
            var parser = HTTPRequestParser()
            var answered = 0
            while let bytes = try? await connection.read(maxBytes: 4096, deadline: .now + .seconds(60)),
                !bytes.isEmpty
            {
                parser.append(bytes)
                while (try? parser.next()) ?? nil != nil {
                    if silent { continue }
                    let head = "HTTP/1.1 200 OK\r\nContent-Length: \(contentLength ?? body.count)\r\n\r\n"
                    try? await connection.write(Array(head.utf8) + body, deadline: .now + .seconds(5))
                    answered += 1
                    if let closeAfter, answered >= closeAfter { return }
                }
            }
        }

        var port: UInt16 { listener.address.port }

        func stop() {
            listener.close()
            task.withLock { $0?.cancel() }
        }
    }

    @Test("requests one after the other reuse one kept-alive connection", .frozenClock)
    func keepAlive() async throws {
        let server = try Server()
        defer { server.stop() }
        // On a clock that never moves the 5 s request timeout cannot fire: what is asserted is
        // reuse, not speed (it failed on one core, no answer within 5 s of real time).
        try await ManualClock().run {
            let client = HTTPClient(host: "127.0.0.1", port: server.port)
            for _ in 0..<5 {
                let response = try await client.request("GET", "/")
                #expect(response.status == 200 && response.body == Array("ok".utf8))
            }
            await client.closeIdle()
        }
        #expect(server.accepted.current == 1)
    }

    @Test("a connection the device closed while idle is dropped, even below a healthy one", .frozenClock)
    func peerClosedIsDropped() async throws {
        let server = try Server(closeOdd: true)
        defer { server.stop() }
        // Each round: two requests at once make two kept connections, and the server closes one
        // of them. Requests after that reuse the open one; the closed one must not stay pooled
        // (which of the two is on top is down to timing, hence several rounds).
        for round in 0..<8 {
            let client = HTTPClient(host: "127.0.0.1", port: server.port)
            async let first = client.request("GET", "/a")
            async let second = client.request("GET", "/b")
            _ = try await (first, second)
            try await Task.sleep(for: .milliseconds(50))  // the server's FIN arrives
            for _ in 0..<3 {
                let response = try await client.request("GET", "/c")
                #expect(response.status == 200)
            }
            let idle = await client.idleCount
            #expect(idle == 1, "round \(round): \(idle) connections pooled, a closed one among them")
            await client.closeIdle()
        }
    }

    @Test("a device that accepts and never answers: a timeout error at exactly the 300 ms deadline")
    func deadline() async throws {
        let server = try Server(silent: true)
        defer { server.stop() }
        let clock = ManualClock()
        let outcome = Mutex<HTTPClientError.Kind??>(nil)
        let request = Task {
            await clock.run {
                let client = HTTPClient(host: "127.0.0.1", port: server.port, requestTimeout: .milliseconds(300))
                do {
                    _ = try await client.request("GET", "/")
                    outcome.withLock { $0 = .some(nil) }
                } catch let error as HTTPClientError {
                    outcome.withLock { $0 = error.kind }
                } catch {
                    outcome.withLock { $0 = .some(nil) }
                }
            }
        }
        // The request's one deadline, 300 ms, bounds its connect and then its read: each arms a
        // timer for that instant, the read's only once the server has the request.
        #expect(await clock.waitForTimer(at: .milliseconds(300)))
        let accepted = await waitUntil(timeout: .seconds(30)) { server.accepted.current == 1 }
        #expect(accepted)
        await clock.advance(to: .milliseconds(300) - .nanoseconds(1))
        let early = outcome.withLock { $0 }
        #expect(early == nil, "ended before its deadline")
        // Fire what is due at 300 ms until the request has ended (its read's timer may be armed
        // after an advance began); virtual time never goes past the deadline.
        let ended = await waitUntil(timeout: .seconds(30)) {
            await clock.advance(to: .milliseconds(300))
            return outcome.withLock { $0 } != nil
        }
        #expect(ended)
        await request.value
        let kind = outcome.withLock { $0 }
        #expect(kind == .some(.timeout))
        #expect(clock.elapsed == .milliseconds(300))
    }

    @Test("an answer larger than the cap is refused before it is read", .frozenClock)
    func sizeCap() async throws {
        let server = try Server(body: [], contentLength: 8 << 20)
        defer { server.stop() }
        // A clock that never moves: refused by its size, never by a timeout on a busy machine.
        let kind = await ManualClock().run { () -> HTTPClientError.Kind? in
            let client = HTTPClient(host: "127.0.0.1", port: server.port, maxBodyBytes: 1 << 20)
            do {
                _ = try await client.request("GET", "/")
                return nil
            } catch let error as HTTPClientError {
                return error.kind
            } catch {
                return nil
            }
        }
        #expect(kind == .malformed)
    }
}
