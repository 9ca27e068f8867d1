import Clients
import Harness
import Net
import Synchronization
import TestSupport
import Testing
import Wire

@Suite("WebSocket client and server over loopback sockets")
struct WebSocketClientTests {
    @Test("the handshake negotiates a subprotocol we offered, or none")
    func handshakeSubprotocol() async throws {
        let server = try LoopbackServer.echo(subprotocols: ["other", "ecp-2"])
        defer { server.stop() }
        try await within {
            let with = try await WebSocketClient.connect(
                url: server.wsURL, subprotocols: ["ecp-2"], connectTimeout: .seconds(30), handshakeTimeout: .seconds(30)
            )
            #expect(with.subprotocol == "ecp-2")
            #expect(with.peerCertificateSHA256 == nil)
            try await with.connection.send(text: "ping?")
            var events = with.connection.incoming.makeAsyncIterator()
            #expect(await events.next() == .text("ping?"))
            try await with.connection.close()

            let without = try await WebSocketClient.connect(
                url: server.wsURL, connectTimeout: .seconds(30), handshakeTimeout: .seconds(30))
            #expect(without.subprotocol == nil)
            try await without.connection.close()
        }
    }

    @Test("text and binary echo: a 1 MiB message and 100 messages in order")
    func echo() async throws {
        let server = try LoopbackServer.echo()
        defer { server.stop() }
        try await within {
            // Close and writes within the hang bound, not the 3 s and 5 s defaults: the test asserts
            // a clean close, not how fast it came.
            let ws = try await WebSocketClient.connect(
                url: server.wsURL, subprotocols: ["ecp-2"], connectTimeout: .seconds(30),
                handshakeTimeout: .seconds(30),
                configuration: WebSocketConfiguration(closeTimeout: .seconds(30), writeTimeout: .seconds(30))
            )
            .connection
            let big = try await offTheLoop { (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) } }
            try await ws.send(binary: big)
            for index in 0..<100 { try await ws.send(text: "message \(index) ✓") }
            try await ws.send(binary: [])
            // Wait for every echo before closing: a close is acted on as soon as it is read, so
            // the server would not echo messages its application has not handled yet.
            var events = ws.incoming.makeAsyncIterator()
            var messages: [WebSocketIncoming] = []
            while messages.count < 102, let event = await events.next() { messages.append(event) }
            #expect(messages.count == 102)
            let bigEchoed = messages.first == .binary(big)  // not in #expect: a failure would print 1 MiB
            #expect(bigEchoed)
            let expectedTexts: [WebSocketIncoming] = (0..<100).map { .text("message \($0) ✓") }
            #expect(Array(messages.dropFirst().prefix(100)) == expectedTexts)
            #expect(messages.last == .binary([]))
            let reason = try await ws.close(code: 1000, reason: "done")
            #expect(
                reason
                    == WebSocketCloseReason(code: 1000, reason: "done", initiator: .local, wasClean: true))
            #expect(await events.next() == .closed(reason))
            #expect(await events.next() == nil)
        }
    }

    @Test("the close handshake started by the server: code 1000 and a reason reach the client")
    func serverCloses() async throws {
        let server = try LoopbackServer.echo()
        defer { server.stop() }
        try await within {
            let ws = try await WebSocketClient.connect(
                url: server.wsURL, connectTimeout: .seconds(30), handshakeTimeout: .seconds(30)
            ).connection
            try await ws.send(text: "close 1000 see you")
            let (messages, closed) = await collect(ws)
            #expect(messages.isEmpty)
            #expect(
                closed
                    == WebSocketCloseReason(code: 1000, reason: "see you", initiator: .peer, wasClean: true))
            #expect(await ws.closed() == closed)
            await #expect(throws: WebSocketError.self) { try await ws.send(text: "after") }
        }
    }

    @Test("the server sees our close code and reason")
    func serverSeesClientClose() async throws {
        let seen = AsyncStream.makeStream(of: WebSocketCloseReason.self)
        let server = try LoopbackServer.start { stream in
            guard let accepted = try? await WebSocketServerHandshake.accept(stream: stream, timeout: .seconds(30))
            else {
                return
            }
            let (_, closed) = await collect(accepted.connection)
            if let closed { seen.continuation.yield(closed) }
        }
        defer { server.stop() }
        try await within {
            // On a clock that never moves the close handshake's own timeout cannot pass, however
            // late a loaded machine answers (one core: closed unclean before the echo came).
            let ours = try await ManualClock().run {
                let ws = try await WebSocketClient.connect(
                    url: server.wsURL, connectTimeout: .seconds(30), handshakeTimeout: .seconds(30)
                ).connection
                return try await ws.close(code: 1000, reason: "bye")
            }
            #expect(ours.wasClean && ours.code == 1000)
            var iterator = seen.stream.makeAsyncIterator()
            #expect(
                await iterator.next()
                    == WebSocketCloseReason(code: 1000, reason: "bye", initiator: .peer, wasClean: true))
        }
    }

    @Test("frames sent right behind the 101, in the same write, are not lost")
    func framesAfterHandshake() async throws {
        let server = try LoopbackServer.scripted(answer: { key in
            switchingProtocols(key: key) + WebSocketFrame.text("first").encode(maskingKey: nil)
                + WebSocketFrame.text("second").encode(maskingKey: nil)
        })
        defer { server.stop() }
        let clock = ManualClock()
        try await within {
            let configuration = WebSocketConfiguration(closeTimeout: .milliseconds(200))
            let ws = try await clock.run {
                try await WebSocketClient.connect(
                    url: server.wsURL, connectTimeout: .seconds(30), handshakeTimeout: .seconds(30),
                    configuration: configuration
                ).connection
            }
            var events = ws.incoming.makeAsyncIterator()
            #expect(await events.next() == .text("first"))
            #expect(await events.next() == .text("second"))
            // This server never answers a close: the close timeout ends the connection, at 200 ms.
            let closing = Task { try await clock.run { try await ws.close(code: 1001) } }
            #expect(await clock.waitForTimer(at: .milliseconds(200)), "\(clock.pendingDeadlines)")
            await clock.advance(to: .milliseconds(200))
            let reason = try await closing.value
            #expect(reason.code == 1001 && !reason.wasClean && reason.reason.contains("did not answer"))
            #expect(clock.elapsed == .milliseconds(200))
        }
    }

    @Test("a server that closes in the middle of a frame: the connection ends with 1006")
    func closesMidFrame() async throws {
        let server = try LoopbackServer.scripted(
            answer: { key in
                switchingProtocols(key: key)
                    + Array(WebSocketFrame.text("complete").encode(maskingKey: nil))
            },
            after: { stream in
                let frame = WebSocketFrame.binary([UInt8](repeating: 1, count: 1000)).encode(
                    maskingKey: nil)
                try? await stream.write(Array(frame.prefix(500)))
            })
        defer { server.stop() }
        try await within {
            let ws = try await WebSocketClient.connect(
                url: server.wsURL, connectTimeout: .seconds(30), handshakeTimeout: .seconds(30)
            ).connection
            let (messages, closed) = await collect(ws)
            #expect(messages == [.text("complete")])
            #expect(closed?.code == 1006)
            #expect(closed?.initiator == .transport)
            #expect(closed?.wasClean == false)
        }
    }

    @Test("keepalive: a peer that stops answering is pinged at 200 ms of silence and declared dead at 500 ms")
    func keepAliveDetectsSilentPeer() async throws {
        // Answers the handshake, then neither reads nor writes until the client goes away.
        let server = try LoopbackServer.scripted(
            answer: { switchingProtocols(key: $0) },
            after: { _ in try? await Task.sleep(for: .seconds(60)) })
        defer { server.stop() }
        let clock = ManualClock()
        try await within {
            let configuration = WebSocketConfiguration(
                keepAliveInterval: .milliseconds(200), keepAliveTimeout: .milliseconds(300))
            let ws = try await clock.run {
                try await WebSocketClient.connect(
                    url: server.wsURL, connectTimeout: .seconds(30), handshakeTimeout: .seconds(30),
                    configuration: configuration
                ).connection
            }
            // Open at 0: the ping at 200 ms of silence, then 300 ms for anything to arrive.
            for deadline in [Duration.milliseconds(200), .milliseconds(500)] {
                #expect(await clock.waitForTimer(at: deadline), "\(deadline): \(clock.pendingDeadlines)")
                await clock.advance(to: deadline - .nanoseconds(1))
                #expect(clock.pendingDeadlines.first == deadline)
                #expect(await ws.closeReason == nil)
                await clock.advance(to: deadline)
            }
            let (_, closed) = await collect(ws)
            #expect(closed?.code == 1006)
            #expect(closed?.initiator == .local)
            #expect(closed?.reason.contains("keepalive") == true)
            #expect(clock.elapsed == .milliseconds(500))
        }
    }

    @Test("keepalive: a live peer answers the pings every 100 ms and the connection stays up")
    func keepAliveWithLivePeer() async throws {
        let server = try LoopbackServer.echo()
        defer { server.stop() }
        let clock = ManualClock()
        try await within(60) {
            let configuration = WebSocketConfiguration(
                keepAliveInterval: .milliseconds(100), keepAliveTimeout: .seconds(2))
            let ws = try await clock.run {
                try await WebSocketClient.connect(
                    url: server.wsURL, connectTimeout: .seconds(30), handshakeTimeout: .seconds(30),
                    configuration: configuration
                ).connection
            }
            // Each ping at 100 ms of silence; its pong moves the next one 100 ms on: the timer for
            // it is armed only once the pong is in, so waiting for it is waiting for the pong.
            // (Up to 1.5 s: each ping's own 2 s timeout stays armed, out of the way, until then.)
            for tenth in 1...15 {
                let due = Duration.milliseconds(100 * tenth)
                #expect(await clock.waitForTimer(at: due), "ping \(tenth): \(clock.pendingDeadlines)")
                await clock.advance(to: due)
            }
            #expect(await clock.waitForTimer(at: .milliseconds(1600)), "the 15th pong: \(clock.pendingDeadlines)")
            #expect(await ws.closeReason == nil)
            try await clock.run { try await ws.send(text: "still here") }
            var events = ws.incoming.makeAsyncIterator()
            #expect(await events.next() == .text("still here"))
            _ = try await clock.run { try await ws.close() }
        }
    }
}

@Suite("WebSocket connection back-pressure")
struct WebSocketBackPressureTests {
    @Test("a consumer that does not read stops the reading: memory stays bounded, nothing is lost")
    func boundedInbox() async throws {
        let count = 4000
        let sent = Counter()
        let server = try LoopbackServer.start { stream in
            // The server's writes wait for the client to read: on a busy machine the client's
            // task may not run for seconds, so the write deadline is far beyond the test's.
            let patient = WebSocketConfiguration(writeTimeout: .seconds(60))
            guard
                let accepted = try? await WebSocketServerHandshake.accept(
                    stream: stream, timeout: .seconds(30), configuration: patient)
            else { return }
            for index in 0..<count {
                var payload = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: 10_000)
                payload[0] = UInt8(truncatingIfNeeded: index >> 8)
                guard (try? await accepted.connection.send(binary: payload)) != nil else { return }
                sent.increment()
            }
            _ = try? await accepted.connection.close()
        }
        defer { server.stop() }
        // 40 MB through one loop thread that every other test shares: on a busy machine that took
        // longer than the 30 s this test had, and it ended part way. It asserts no time: it waits
        // for the inbox to fill, not for a fixed sleep, and is bounded only against a hang.
        try await within(300) {
            let limit = 64 * 1024
            let ws = try await WebSocketClient.connect(
                url: server.wsURL, connectTimeout: .seconds(30), handshakeTimeout: .seconds(30),
                configuration: WebSocketConfiguration(maxBufferedIncomingBytes: limit)
            ).connection
            let filled = await waitUntil(timeout: .seconds(120)) { await ws.bufferedIncomingBytes >= limit }
            #expect(filled, "the inbox never filled")
            // 40 MB were offered; the kernel's socket buffers hold some, our inbox only its limit
            // plus what one 64 KiB read completes.
            let buffered = await ws.bufferedIncomingBytes
            #expect(buffered <= limit + 64 * 1024 + 10_064)
            #expect(sent.value < count)
            var received = 0
            for await event in ws.incoming {
                guard case .binary(let payload) = event else { break }
                #expect(payload.count == 10_000 && payload[0] == UInt8(truncatingIfNeeded: received >> 8))
                #expect(payload[1] == UInt8(truncatingIfNeeded: received))
                received += 1
            }
            #expect(received == count)
        }
    }
}

extension WebSocketBackPressureTests {
    @Test("closing while the inbox is full still completes the close handshake")
    func closeWithFullInbox() async throws {
        let server = try LoopbackServer.start { stream in
            // Its writes wait for a client that stopped reading: a write timeout in real time
            // (10 s by default) would close the connection on a busy machine before the client
            // closes it, so it is beyond the test's own bound.
            let patient = WebSocketConfiguration(writeTimeout: .seconds(120))
            guard
                let accepted = try? await WebSocketServerHandshake.accept(
                    stream: stream, timeout: .seconds(30), configuration: patient)
            else { return }
            let flood = [UInt8](repeating: 0x55, count: 10_000)
            while (try? await accepted.connection.send(binary: flood)) != nil {}
        }
        defer { server.stop() }
        // The client's close timeout (10 s) is virtual and time stands still: a close that ends
        // at all ended by the handshake, not by giving up.
        let clock = ManualClock()
        try await within(60) {
            let limit = 32 * 1024
            let ws = try await clock.run {
                try await WebSocketClient.connect(
                    url: server.wsURL,
                    configuration: WebSocketConfiguration(closeTimeout: .seconds(10), maxBufferedIncomingBytes: limit)
                ).connection
            }
            let filled = await waitUntil(timeout: .seconds(30)) { await ws.bufferedIncomingBytes >= limit }
            #expect(filled, "the inbox never filled")
            let reason = try await clock.run { try await ws.close(code: 1000, reason: "enough") }
            #expect(reason == WebSocketCloseReason(code: 1000, reason: "enough", initiator: .local, wasClean: true))
            #expect(clock.elapsed == .zero)
        }
    }
}

final class Counter: Sendable {
    private let storage = Mutex(0)
    func increment() { storage.withLock { $0 += 1 } }
    var value: Int { storage.withLock { $0 } }
}
