import Clients
import Net
import Testing
import Wire

/// The UPnP event listener's connection slots (`GENANotifyListener.maxConnections`) belong to
/// the subscribed TVs: a host that is no subscriber's TV is closed right after `accept`, one
/// address holds at most `maxConnectionsPerAddress` of them, and an idle connection is closed
/// at the deadline. Real sockets on loopback, each side from its own 127.0.0.x address.
@Suite("GENA listener: connection slots")
struct GENANotifyListenerSlotTests {
    static let sid = "uuid:5ec5e1d0-0000-1000-8000-000000000103"

    /// A listener on a free loopback port with one subscriber per host, each accepting `sid`.
    static func listener(hosts: [String], deadline: Duration) throws -> (GENANotifyListener, [GENARegistration]) {
        let listener = GENANotifyListener(port: 0, bindHost: "127.0.0.1", connectionDeadline: deadline)
        let registrations = try hosts.map { host in
            let registration = try listener.register(host: host) { _ in nil }
            listener.expect(sid: sid, for: registration)
            return registration
        }
        return (listener, registrations)
    }

    static func notify(_ registration: GENARegistration) -> [UInt8] {
        let body = Array(
            "<?xml version=\"1.0\"?><e:propertyset xmlns:e=\"urn:schemas-upnp-org:event-1-0\"><e:property><LastChange>&lt;Event/&gt;</LastChange></e:property></e:propertyset>"
                .utf8)
        let head =
            "NOTIFY \(registration.path) HTTP/1.1\r\nHOST: 127.0.0.1\r\nNT: upnp:event\r\nNTS: upnp:propchange\r\n"
            + "SID: \(sid)\r\nSEQ: 1\r\nContent-Length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + body
    }

    static func open(_ count: Int, from source: String, to listener: GENANotifyListener) async throws -> [TCPConnection]
    {
        let address = try SocketAddress(ip: "127.0.0.1", port: try #require(listener.boundPort))
        var connections: [TCPConnection] = []
        for _ in 0..<count {
            connections.append(
                try await TCPConnection.connect(to: address, from: try SocketAddress(ip: source, port: 0)))
        }
        return connections
    }

    /// The status the listener answers to `bytes` sent from `source` (from its status line);
    /// nil when it closed the connection without an answer, or gave none within `hangBound`.
    static func send(
        _ bytes: [UInt8], from source: String, to listener: GENANotifyListener, hangBound: Duration = .seconds(10)
    ) async throws -> Int? {
        let connection = try #require(try await open(1, from: source, to: listener).first)
        defer { connection.close() }
        let deadline = ContinuousClock.now + hangBound
        try await connection.write(bytes, deadline: deadline)
        var answer: [UInt8] = []
        while !answer.contains(0x0A), let chunk = try? await connection.read(maxBytes: 4096, deadline: deadline),
            !chunk.isEmpty
        {
            answer += chunk
        }
        // "HTTP/1.1 200 OK": the second word.
        return String(decoding: answer, as: UTF8.self).split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    /// How many of `connections` the listener closes within `wait` (each read sees the end).
    static func closedWithin(_ wait: Duration, _ connections: [TCPConnection]) async -> Int {
        let deadline = ContinuousClock.now + wait
        return await withTaskGroup(of: Bool.self) { group in
            for connection in connections {
                group.addTask { (try? await connection.read(maxBytes: 1, deadline: deadline))?.isEmpty == true }
            }
            var closed = 0
            for await wasClosed in group where wasClosed { closed += 1 }
            return closed
        }
    }

    @Test(
        "a stranger holding more idle connections than there are slots is closed at once; the TV's NOTIFY gets its 200")
    func strangerTakesNoSlot() async throws {
        // Under a clock that never moves, a connection's deadline never comes: whatever closes
        // was closed at accept.
        let clock = ManualClock()
        let (listener, registrations) = try await clock.run {
            try Self.listener(hosts: ["127.0.0.2"], deadline: .seconds(60))
        }
        defer { listener.unregister(registrations[0]) }
        let stranger = try await Self.open(GENANotifyListener.maxConnections + 6, from: "127.0.0.9", to: listener)
        defer { for connection in stranger { connection.close() } }
        let status = try await Self.send(Self.notify(registrations[0]), from: "127.0.0.2", to: listener)
        #expect(status == 200, "the TV's NOTIFY found no free slot")
        let closed = await Self.closedWithin(.seconds(30), stranger)
        #expect(closed == stranger.count)
        #expect(clock.elapsed == .zero)
    }

    @Test("one address holds at most maxConnectionsPerAddress connections; another TV still gets through")
    func capPerAddress() async throws {
        let clock = ManualClock()
        let (listener, registrations) = try await clock.run {
            try Self.listener(hosts: ["127.0.0.2", "127.0.0.3"], deadline: .seconds(60))
        }
        defer { for registration in registrations { listener.unregister(registration) } }
        let cap = GENANotifyListener.maxConnectionsPerAddress
        let greedy = try await Self.open(GENANotifyListener.maxConnections + 6, from: "127.0.0.2", to: listener)
        defer { for connection in greedy { connection.close() } }
        let status = try await Self.send(Self.notify(registrations[1]), from: "127.0.0.3", to: listener)
        #expect(status == 200, "one TV's idle connections took every slot")
        // Those past the cap (the last accepted) are closed at accept; the cap's worth keep
        // their slots until their 60 s deadline, which only the clock brings.
        let atAccept = await Self.closedWithin(.seconds(30), Array(greedy.dropFirst(cap)))
        #expect(atAccept == greedy.count - cap)
        #expect(clock.elapsed == .zero)
        #expect(await Self.closedWithin(.zero, Array(greedy.prefix(cap))) == 0, "closed before the deadline")
        await clock.advance(to: .seconds(60))
        let atDeadline = await Self.closedWithin(.seconds(30), Array(greedy.prefix(cap)))
        #expect(atDeadline == cap)
    }

    @Test("a NOTIFY from another subscribed TV's address, to this TV's path with its SID, is refused with 403")
    func anotherTVsAddress() async throws {
        let (listener, registrations) = try Self.listener(hosts: ["127.0.0.2", "127.0.0.3"], deadline: .seconds(10))
        defer { for registration in registrations { listener.unregister(registration) } }
        let status = try await Self.send(Self.notify(registrations[0]), from: "127.0.0.3", to: listener)
        #expect(status == 403)
    }

    @Test("an idle connection from the TV is closed at exactly the 1 s deadline, not before")
    func deadline() async throws {
        // The listener runs under the clock: its connections' deadlines are virtual.
        let clock = ManualClock()
        let (listener, registrations) = try await clock.run {
            try Self.listener(hosts: ["127.0.0.2"], deadline: .seconds(1))
        }
        defer { listener.unregister(registrations[0]) }
        let idle = try await Self.open(1, from: "127.0.0.2", to: listener)
        defer { for connection in idle { connection.close() } }
        #expect(await clock.waitForTimer(at: .seconds(1)), "the connection's deadline")
        await clock.advance(to: .seconds(1) - .nanoseconds(1))
        #expect(clock.pendingDeadlines.first == .seconds(1), "nothing fired before the deadline")
        await clock.advance(to: .seconds(1))
        // A generous bound against a hang only: the close follows the deadline at once.
        let closed = await Self.closedWithin(.seconds(30), idle)
        #expect(closed == 1)
        #expect(clock.elapsed == .seconds(1))
    }
}
