import BridgeCommandLine
import MQTTInterface
import TestSupport
import Testing

@testable import Bridge
@testable import ConfigurationLoading

/// Issue 13, item 12: ids that would collide with the bridge's own topics, and credentials in
/// the broker URL.
@Suite("Configuration guards", .cpuBound)
struct ConfigurationGuardTests {
    @Test("the TV id 'bridge' is refused: its topics would be the bridge's own")
    func bridgeIDRefused() {
        let message = configError(file: #"{"tvs": [{"host": "192.0.2.5", "id": "bridge"}]}"#) ?? "no error"
        #expect(message.contains("tvs[0].id: 'bridge' is reserved"), "got: \(message)")
        #expect(Topics.collidesWithBridgeTopics("bridge"))
        #expect(!Topics.collidesWithBridgeTopics("bridge_tv"))
        #expect(configError(file: #"{"tvs": [{"host": "192.0.2.5", "id": "bridge_tv"}]}"#) == nil)
    }

    static let secret = "S3cret-pw"

    @Test(
        "a password inside the broker URL is masked in every error (file, flag, environment; any mistake)",
        arguments: [
            "mqtt://tv:\(secret)@192.0.2.1:1883", "mqtt://tv:\(secret)@192.0.2.1:99999",
            "mqtts://tv:\(secret)@broker/path?q", "mqtt://tv:\(secret)/x#y@192.0.2.1", "tv:\(secret)@192.0.2.1",
            "mqtt://tv:\(secret) @192.0.2.1", "http://tv:\(secret)@192.0.2.1",
        ])
    func brokerURLPasswordMasked(url: String) {
        let errors = [
            configError(file: #"{"mqtt": {"server": "\#(url)"}}"#),
            configError(["--mqtt-server", url]),
            configError(environment: ["TV2MQTT_MQTT_SERVER": url]),
        ]
        for error in errors {
            let message = error ?? "no error"
            #expect(error != nil, "accepted \(url)")
            #expect(!message.contains(Self.secret), "\(message)")
            #expect(message.contains("***@"), "\(message)")
        }
        #expect(errors[0]?.contains("credentials do not belong in the URL; use mqtt.user and mqtt.password") == true)
    }
}
