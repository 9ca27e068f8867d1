import Net
import Wire

/// The publisher of `command-latency` and `latency-budget`: an MQTT connection that only sends
/// QoS 0 PUBLISH packets, each encoded and written with one `send()` by the calling task.
///
/// A command's time starts when it leaves for the broker. The probe's `MQTTClient` hands a
/// publish to its writer task, whose wake-up on this loaded 2-core machine took tens of µs
/// of tvbench's own scheduling, which the bridge was charged with (`latency-budget`'s
/// broker row showed it).
final class CommandPublisher: Sendable {
    private let connection: TCPConnection

    private init(connection: TCPConnection) { self.connection = connection }

    /// Connects with a clean session and no keep-alive, and waits for CONNACK.
    static func connect(to broker: BenchBroker, clientID: String) async throws -> CommandPublisher {
        let connection = try await TCPConnection.connect(host: broker.host, port: broker.port, timeout: .seconds(5))
        do {
            let connect = MQTTPacket.connect(MQTTConnect(clientID: clientID, keepAlive: 0))
            try await connection.write(try connect.encoded(), deadline: .now + .seconds(5))
            var decoder = MQTTFrameDecoder(maxPacketSize: 1024)
            while true {
                let bytes = try await connection.read(maxBytes: 1024, deadline: .now + .seconds(5))
                guard !bytes.isEmpty else { throw BenchError("mosquitto closed the publisher's connection") }
                decoder.append(bytes)
                if case .packet(.connAck(let answer))? = try decoder.nextFrame() {
                    guard answer.returnCode == .accepted else { throw BenchError("mosquitto refused: \(answer)") }
                    return CommandPublisher(connection: connection)
                }
            }
        } catch {
            connection.close()
            throw error
        }
    }

    /// Encodes and writes one QoS 0 PUBLISH.
    func publish(_ topic: String, _ payload: String) async throws {
        let packet = MQTTPacket.publish(MQTTPublish(topic: topic, payload: Array(payload.utf8)))
        try await connection.write(try packet.encoded(), deadline: .now + .seconds(5))
    }

    func close() { connection.close() }
}
