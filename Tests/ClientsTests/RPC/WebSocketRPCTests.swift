import Clients
import Net
import TestSupport
import Testing

/// A `WebSocketRPC` over real loopback connections, with the test at the far end: requests are
/// "<id> <text>", and a reply is any message starting with the id it answers.
@Suite("WebSocket RPC: replies matched by id over a loopback connection")
struct WebSocketRPCTests {
    @Test("each reply answers the request with its id, byte for byte, in whatever order they come")
    func matchedByID() async throws {
        try await withRPCRig { rig in
            let first = try await rig.rpc.send("1 volume?", awaiting: "1", timeout: nil)
            let second = try await rig.rpc.send("2 app? ✓", awaiting: "2", timeout: nil)
            let asked = await rig.peer.next(2)
            #expect(asked == ["1 volume?", "2 app? ✓"])
            try await rig.peer.connection.send(text: "2 {\"app\":\"Netflix\"} ✓")
            try await rig.peer.connection.send(text: "1 {\"volume\":12}")
            let secondReply = try await rig.rpc.reply(to: second)
            let firstReply = try await rig.rpc.reply(to: first)
            #expect(secondReply == "2 {\"app\":\"Netflix\"} ✓")
            #expect(firstReply == "1 {\"volume\":12}")
            #expect(!rig.rpc.isAwaited("1") && !rig.rpc.isAwaited("2"))
        }
    }

    @Test("a reply that comes before its requester waits is kept, and handed over at once")
    func earlyAnswerKept() async throws {
        try await withRPCRig { rig in
            let ticket = try await rig.rpc.send("7 power?", awaiting: "7", timeout: nil)
            #expect(await rig.peer.next(1) == ["7 power?"])
            let read = try await rig.peerSends("7 on")
            #expect(read == [.init(text: "7 on", answered: true)])
            #expect(rig.rpc.isAnswered(ticket))
            let reply = try await rig.rpc.reply(to: ticket)
            #expect(reply == "7 on")
        }
    }

    @Test("an id still waiting is refused before anything is sent; a second reply to it answers nothing")
    func duplicateID() async throws {
        try await withRPCRig { rig in
            let ticket = try await rig.rpc.send("5 first", awaiting: "5", timeout: nil)
            let refused = await thrownError { () async throws(RPCError) in
                _ = try await rig.rpc.send("5 again", awaiting: "5", timeout: nil)
            }
            #expect(refused == .duplicateID)
            try await rig.rpc.send(text: "6 after")
            #expect(await rig.peer.next(2) == ["5 first", "6 after"], "the refused request never went out")
            let read = try await rig.peerSends("5 one", "5 two")
            #expect(read.map(\.answered) == [true, false])
            let reply = try await rig.rpc.reply(to: ticket)
            #expect(reply == "5 one")
        }
    }

    @Test("a wait ends at its deadline, exactly, and a reply after it answers nothing")
    func answerAfterTimeout() async throws {
        let clock = ManualClock()
        try await withRPCRig { rig in
            let ticket = try await clock.run {
                try await rig.rpc.send("9 slow", awaiting: "9", timeout: .seconds(5))
            }
            let waiting = Task {
                await clock.run { () -> (RPCError?, Duration) in
                    do throws(RPCError) {
                        _ = try await rig.rpc.reply(to: ticket)
                        return (nil, clock.elapsed)
                    } catch {
                        return (error, clock.elapsed)
                    }
                }
            }
            #expect(await clock.waitForTimer(at: .seconds(5)), "the wait armed no deadline")
            await clock.advance(to: .seconds(5) - .milliseconds(1))
            #expect(rig.rpc.isAwaited("9"), "still waiting just before the deadline")
            await clock.advance(to: .seconds(5))
            let (error, endedAt) = await waiting.value
            #expect(error == .timeout)
            #expect(endedAt == .seconds(5))
            #expect(!rig.rpc.isAwaited("9"))
            let read = try await rig.peerSends("9 late")
            #expect(read == [.init(text: "9 late", answered: false)])
        }
    }

    @Test("the peer closing fails every request waiting on the connection, with how it ended")
    func closedWithWaitersPending() async throws {
        try await withRPCRig { rig in
            let suspended = try await rig.rpc.send("1 a", awaiting: "1", timeout: nil)
            let notYetWaited = try await rig.rpc.send("2 b", awaiting: "2", timeout: nil)
            let waiting = Task { () -> RPCError? in
                do throws(RPCError) {
                    _ = try await rig.rpc.reply(to: suspended)
                    return nil
                } catch {
                    return error
                }
            }
            #expect(await rig.peer.next(2) == ["1 a", "2 b"])
            try await rig.peer.connection.close(code: 1001, reason: "going to standby")
            let ending = await rig.reader.value
            #expect(ending?.code == 1001 && ending?.reason == "going to standby")
            let first = await waiting.value
            #expect(first == .closed("closed by the peer with code 1001: going to standby"))
            let second = await thrownError { () async throws(RPCError) in _ = try await rig.rpc.reply(to: notYetWaited)
            }
            #expect(second == first)
            #expect(!rig.rpc.isConnected)
            let later = await thrownError { () async throws(RPCError) in
                _ = try await rig.rpc.send("3 c", awaiting: "3", timeout: nil)
            }
            #expect(later == .notConnected)
        }
    }

    @Test("a reply read from a replaced connection never answers a request of the new one")
    func generations() async throws {
        try await withRPCRig { rig in
            let old = try await rig.rpc.send("1 on the old", awaiting: "1", timeout: nil)
            #expect(await rig.peer.next(1) == ["1 on the old"])
            let replacement = try await rig.connectAgain()
            let replaced = await thrownError { () async throws(RPCError) in _ = try await rig.rpc.reply(to: old) }
            #expect(replaced == .closed("another connection replaced it"))
            let fresh = try await rig.rpc.send("1 on the new", awaiting: "1", timeout: nil)
            #expect(await replacement.peer.next(1) == ["1 on the new"])
            // The old peer answers id 1, then goes: its reader skips what it reads (not current).
            try await rig.peer.connection.send(text: "1 stale")
            try await rig.peer.connection.close()
            #expect(await rig.reader.value == nil, "the old connection was no longer current")
            #expect(!rig.rpc.isAnswered(fresh))
            #expect(!rig.rpc.answer("1", "1 forged", generation: rig.generation), "the old generation answers nothing")
            try await replacement.peer.connection.send(text: "1 fresh")
            let reply = try await rig.rpc.reply(to: fresh)
            #expect(reply == "1 fresh")
            replacement.stop()
        }
    }

    @Test("a detach fails the waiters with its reason; a request its owner answers outlives connections")
    func detachAndOwnedRequests() async throws {
        try await withRPCRig { rig in
            let owned = try rig.rpc.reserve("local", timeout: nil)
            let sent = try await rig.rpc.send("4 d", awaiting: "4", timeout: nil)
            let closing = rig.rpc.detach("the driver was shut down")
            #expect(closing === rig.client)
            let detached = await thrownError { () async throws(RPCError) in _ = try await rig.rpc.reply(to: sent) }
            #expect(detached == .closed("the driver was shut down"))
            #expect(rig.rpc.isAwaited("local"))
            #expect(rig.rpc.answer("local", "done"))
            let reply = try await rig.rpc.reply(to: owned)
            #expect(reply == "done")
            _ = try? await closing?.close()
        }
    }
}

/// Runs `body` against a rig of its own, stopped after it (a 60 s hang bound).
func withRPCRig(_ body: @escaping @Sendable (RPCRig) async throws -> Void) async throws {
    let rig = try await RPCRig.start()
    defer { rig.stop() }
    try await within { try await body(rig) }
}

/// One client `WebSocketRPC` over a loopback connection, its reader, and the test at the far end.
struct RPCRig: Sendable {
    /// What the reader handed over, and whether it answered a waiting request.
    struct Read: Equatable, Sendable {
        let text: String
        let answered: Bool
    }

    /// The far end of one connection: what the client sent, in order.
    struct Peer: Sendable {
        let connection: WebSocketConnection
        let sent: AsyncStream<String>

        func next(_ count: Int) async -> [String] { await sent.next(count) }
    }

    let server: LoopbackServer
    let peers: AsyncStream<WebSocketConnection>
    let rpc: WebSocketRPC<String, String>
    let client: WebSocketConnection
    let generation: Int
    let peer: Peer
    /// What the reader handed over, in order.
    let reads: AsyncStream<Read>
    let reader: Task<WebSocketCloseReason?, Never>

    static func start() async throws -> RPCRig {
        let (peers, accepted) = AsyncStream.makeStream(of: WebSocketConnection.self)
        let server = try LoopbackServer.start { stream in
            guard let upgrade = try? await WebSocketServerHandshake.accept(stream: stream, timeout: .seconds(30))
            else { return }
            accepted.yield(upgrade.connection)
            _ = await upgrade.connection.closed()
        }
        return try await connect(server: server, peers: peers, rpc: WebSocketRPC())
    }

    /// A second connection to the same server, attached in place of this one.
    func connectAgain() async throws -> RPCRig {
        try await Self.connect(server: server, peers: peers, rpc: rpc)
    }

    private static func connect(
        server: LoopbackServer, peers: AsyncStream<WebSocketConnection>, rpc: WebSocketRPC<String, String>
    ) async throws -> RPCRig {
        // Set-up's deadlines are the one hang bound: these tests are about matching replies,
        // not about how soon a busy machine answers a handshake.
        let client = try await WebSocketClient.connect(
            url: "ws://127.0.0.1:\(server.port)/rpc", connectTimeout: .seconds(30), handshakeTimeout: .seconds(30)
        ).connection
        var accepted = peers.makeAsyncIterator()
        guard let far = await accepted.next() else { throw RPCError.notConnected }
        let generation = rpc.attach(client)
        let (sent, forward) = AsyncStream.makeStream(of: String.self)
        Task {
            for await message in far.incoming {
                if case .text(let text) = message { forward.yield(text) }
            }
            forward.finish()
        }
        let (reads, log) = AsyncStream.makeStream(of: Read.self)
        let reader = Task {
            await rpc.read(generation) { text in
                let id = String(text.prefix { $0 != " " })
                log.yield(Read(text: text, answered: rpc.answer(id, text, generation: generation)))
            }
        }
        return RPCRig(
            server: server, peers: peers, rpc: rpc, client: client, generation: generation,
            peer: Peer(connection: far, sent: sent), reads: reads, reader: reader)
    }

    /// The far end sends `texts`, then a fence: what the reader made of them. The reader takes
    /// messages one at a time, so past the fence each reply is in its slot.
    func peerSends(_ texts: String...) async throws -> [Read] {
        for text in texts + ["fence"] { try await peer.connection.send(text: text) }
        return await reads.next(texts.count + 1).dropLast()
    }

    func stop() {
        Task { _ = try? await client.close() }
        server.stop()
    }
}

extension AsyncStream {
    /// The next `count` elements (fewer when the stream ends first).
    func next(_ count: Int) async -> [Element] {
        var taken: [Element] = []
        for await element in self {
            taken.append(element)
            if taken.count == count { break }
        }
        return taken
    }
}
