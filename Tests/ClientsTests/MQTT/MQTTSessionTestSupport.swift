import Clients
import Wire

/// Drives an `MQTTSession` on a virtual timeline: instants are offsets from one base.
enum MQTTSessionTestSupport {
    static let base = ContinuousClock.now

    /// The instant `seconds` after the base.
    static func at(_ seconds: Double) -> ContinuousClock.Instant {
        base + .nanoseconds(Int64(seconds * 1_000_000_000))
    }

    /// A session whose connection opened at 0 s and was accepted at 0 s.
    static func connected(
        _ configuration: MQTTSessionConfiguration = MQTTSessionConfiguration(clientID: "test"),
        sessionPresent: Bool = false
    ) throws -> MQTTSession {
        var session = try MQTTSession(configuration: configuration)
        _ = session.connectionOpened(now: at(0))
        _ = session.received(.connAck(MQTTConnAck(sessionPresent: sessionPresent)), now: at(0))
        return session
    }

    /// Closes the connection and opens a new one accepted at `seconds`; returns the CONNACK's actions.
    static func reconnect(
        _ session: inout MQTTSession, at seconds: Double, sessionPresent: Bool = false
    ) -> [MQTTSessionAction] {
        session.connectionClosed()
        _ = session.connectionOpened(now: at(seconds))
        return session.received(.connAck(MQTTConnAck(sessionPresent: sessionPresent)), now: at(seconds))
    }

    /// The packets among `actions`, in order.
    static func sent(_ actions: [MQTTSessionAction]) -> [MQTTPacket] {
        actions.compactMap { if case .send(let packet) = $0 { packet } else { nil } }
    }
}
