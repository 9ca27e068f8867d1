import Bridge
import Clients
import ConfigurationLoading
import Drivers
import MQTTInterface
import Net
import Support
import Wire

/// `tv2mqtt health`: asks the broker whether this bridge is up, by reading the retained
/// `<base>/bridge/state`, which the running bridge sets to `online` and its last will to
/// `offline`. Exit 0 when it says `online`, 1 otherwise. For container health checks (Docker
/// HEALTHCHECK, a Home Assistant add-on's watchdog): it checks what Home Assistant sees, the
/// broker and the bridge together, with the same configuration as `run`.
enum HealthCommand {
    static let timeout = Duration.seconds(5)

    static func main(_ arguments: [String], environment: [String: String], vendors: [Vendor]) async throws(ConfigError)
        -> Int32
    {
        guard
            let parsed = try CommandLineTool.parse(
                arguments, specs: ConfigurationLoader.runFlags(vendors), usage: "tv2mqtt health [OPTIONS]",
                summary:
                    "Exits 0 when the broker says this bridge is online (the retained <base>/bridge/state), 1 otherwise. Takes the same configuration as 'run'."
            )
        else { return 0 }
        var configuration = try CommandLineTool.configuration(parsed, environment: environment, vendors: vendors)
        // Another client id, so the check never takes over the running bridge's connection.
        configuration.mqtt.clientID += "-health-\(UInt32.random(in: 0...UInt32.max))"
        var session = BridgeService.mqttConfiguration(configuration)
        session.session.will = nil
        session.session.keepAlive = 10
        let client: MQTTClient
        do {
            client = try MQTTClient(configuration: session, logger: .disabled)
        } catch {
            printError("cannot check: \(error)")
            return 1
        }
        let topic = Topics(base: configuration.baseTopic).bridgeState
        let runner = Task { await client.run() }
        let state =
            await withDeadline(LoopClock.current.now + timeout) {
                await readRetained(topic, from: client)
            } ?? nil
        await client.stop()
        runner.cancel()
        switch state {
        case "online":
            print("online")
            return 0
        case let other?:
            printError("the bridge is \(other.isEmpty ? "unknown to the broker" : other) (\(topic))")
            return 1
        case nil:
            printError(
                "no answer from \(configuration.mqtt.server) within \(timeout) (is the broker up?)")
            return 1
        }
    }

    /// The retained payload of `topic` ("" when there is none), once connected and subscribed.
    private static func readRetained(_ topic: String, from client: MQTTClient) async -> String? {
        guard await client.waitUntilConnected(timeout: timeout) else { return nil }
        let first = Task { await client.messages.first { $0.topic == topic } }
        defer { first.cancel() }
        do {
            _ = try await client.subscribe(topic, qos: .atMostOnce)
        } catch {
            return nil
        }
        // A retained message arrives right after SUBACK; none within a moment means none is kept.
        let retained = await withDeadline(LoopClock.current.now + .seconds(1)) {
            await first.value.map { String(decoding: $0.payload, as: UTF8.self) }
        }
        return retained ?? nil ?? ""
    }
}
