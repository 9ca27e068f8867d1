import Net
import Testing
import Wire

/// A fake MQTT broker that the test drives step by step: accept, read exactly what the client
/// sent, answer (or not) with packets or raw bytes, close when the script says so.
final class ScriptedBroker: Sendable {
    let listener: TCPListener

    init() throws {
        listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
    }

    var port: UInt16 { listener.address.port }

    /// The client's next connection; throws `NetError.timedOut` when none comes in time.
    func accept(timeout: Duration = .seconds(10)) async throws -> ScriptedConnection {
        ScriptedConnection(try await listener.accept(deadline: .now + timeout))
    }

    /// Accepts a connection, reads the CONNECT and answers CONNACK.
    func acceptSession(
        sessionPresent: Bool = false, timeout: Duration = .seconds(10),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (ScriptedConnection, MQTTConnect) {
        let connection = try await accept(timeout: timeout)
        let packet = try await connection.readPacket()
        guard case .connect(let connect) = packet else {
            Issue.record(
                "expected CONNECT, got \(String(describing: packet))", sourceLocation: sourceLocation)
            throw ScriptError.unexpected(String(describing: packet))
        }
        try await connection.send(.connAck(MQTTConnAck(sessionPresent: sessionPresent)))
        return (connection, connect)
    }

    func close() { listener.close() }
}

enum ScriptError: Error {
    case unexpected(String)
}

/// One accepted connection of a `ScriptedBroker`. Used by one task at a time.
final class ScriptedConnection {
    let connection: TCPConnection
    private var pending: [UInt8] = []

    init(_ connection: TCPConnection) {
        self.connection = connection
    }

    /// Exactly `count` bytes (fewer only if the client closed the connection first).
    func readBytes(_ count: Int, timeout: Duration = .seconds(10)) async throws -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        while pending.count < count {
            let bytes = try await connection.read(maxBytes: 64 * 1024, deadline: deadline)
            if bytes.isEmpty { break }
            pending += bytes
        }
        let taken = Array(pending.prefix(count))
        pending.removeFirst(taken.count)
        return taken
    }

    /// The next whole packet from the client; nil when it closed the connection.
    func readPacket(timeout: Duration = .seconds(10)) async throws -> MQTTPacket? {
        let deadline = ContinuousClock.now + timeout
        while true {
            var decoder = MQTTFrameDecoder()
            decoder.append(pending)
            if let packet = try decoder.next() {
                pending.removeFirst(pending.count - decoder.bufferedByteCount)
                return packet
            }
            let bytes = try await connection.read(maxBytes: 64 * 1024, deadline: deadline)
            if bytes.isEmpty { return nil }
            pending += bytes
        }
    }

    /// Reads until the client closes the connection; returns the packets it sent meanwhile.
    /// Throws `NetError.timedOut` if the connection is still open after `timeout`.
    func readUntilClosed(timeout: Duration = .seconds(10)) async throws -> [MQTTPacket] {
        let deadline = ContinuousClock.now + timeout
        var packets: [MQTTPacket] = []
        while let packet = try await readPacket(timeout: deadline - .now) { packets.append(packet) }
        return packets
    }

    func send(_ packet: MQTTPacket) async throws {
        try await connection.write(try packet.encoded(), deadline: .now + .seconds(5))
    }

    func send(bytes: [UInt8]) async throws {
        try await connection.write(bytes, deadline: .now + .seconds(5))
    }

    func close() { connection.close() }
}
