import Clients
import Net
import Testing

/// A closed connection is freed: nothing keeps it (and its TLS session's buffers) alive once
/// its owner lets go. A bridge opens one per LG probe, so a leak costs tens of KB per TV.
@Suite("WebSocket connection lifetime")
struct WebSocketLifetimeTests {
    @Test("after close, a connection nobody holds is freed at once, not when its timers are due")
    func freedAfterClose() async throws {
        let server = try LoopbackServer.echo()
        defer { server.stop() }
        let watched = Watched()
        // The connection's timers are virtual and never come due: freed at all is freed at once.
        let clock = ManualClock()
        try await within {
            try await clock.run { try await Self.openAndClose(server.wsURL) { watched.connection = $0 } }
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while watched.connection != nil, ContinuousClock.now < deadline {
            try await EventLoop.sleep(for: .milliseconds(10))
        }
        let alive = watched.connection != nil
        #expect(!alive, "the closed connection is still alive")
        #expect(clock.elapsed == .zero)
    }

    /// Holds the connection weakly (set once, before the connection is dropped).
    final class Watched: @unchecked Sendable {
        weak var connection: WebSocketConnection?
    }

    private static func openAndClose(
        _ url: String, _ keep: @Sendable (WebSocketConnection) -> Void
    ) async throws {
        // Armed, never due: a timer that held the connection would show.
        let timers = WebSocketConfiguration(closeTimeout: .seconds(60), keepAliveInterval: .seconds(60))
        let connection = try await WebSocketClient.connect(
            url: url, connectTimeout: .seconds(30), handshakeTimeout: .seconds(30), configuration: timers
        ).connection
        keep(connection)
        try await connection.send(text: "hello")
        var events = connection.incoming.makeAsyncIterator()
        _ = await events.next()
        try await connection.close()
    }
}
