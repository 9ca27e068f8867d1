import Testing

@testable import Bridge
@testable import ConfigurationLoading

/// `add_tv` (where `tv/add` may connect), `max_tvs`, and the bound on configured names.
@Suite("add_tv and max_tvs")
struct AddTVConfigTests {
    @Test("defaults: loopback refused, no extra ports, at most 10,000 TVs")
    func defaults() throws {
        let config = try loadConfig()
        #expect(config.addTV.allowLoopback == false)
        #expect(config.addTV.ports.isEmpty)
        #expect(config.maxTVs == 10_000)
    }

    @Test("allow_loopback from the file, the environment and the flag; ports and max_tvs from the file")
    func sources() throws {
        let file = try loadConfig(file: #"{"add_tv":{"allow_loopback":true,"ports":[2222,8443]},"max_tvs":50}"#)
        #expect(file.addTV.allowLoopback)
        #expect(file.addTV.ports == [2222, 8443])
        #expect(file.maxTVs == 50)
        #expect(try loadConfig(environment: ["TV2MQTT_ADD_TV_ALLOW_LOOPBACK": "1"]).addTV.allowLoopback)
        #expect(try loadConfig(environment: ["TV2MQTT_MAX_TVS": "20"]).maxTVs == 20)
        #expect(try loadConfig(["--add-tv-allow-loopback"]).addTV.allowLoopback)
    }

    @Test("bad values name their key")
    func refusals() {
        #expect(configError(file: #"{"max_tvs":0}"#)?.contains("max_tvs") == true)
        #expect(configError(file: #"{"add_tv":{"ports":[0]}}"#)?.contains("add_tv.ports[0]") == true)
        #expect(configError(file: #"{"add_tv":{"allow":true}}"#)?.contains("allow") == true)
        #expect(configError(environment: ["TV2MQTT_ADD_TV_ALLOW_LOOPBACK": "maybe"])?.contains("'maybe'") == true)
    }

    @Test("a configured TV's name: 1 to 128 characters without control characters")
    func configuredName() {
        let long = String(repeating: "x", count: 129)
        let error = configError(file: #"{"tvs":[{"host":"192.0.2.5","name":"\#(long)"}]}"#)
        #expect(
            error == "tvs[0].name: must be 1 to 128 characters without control characters",
            "\(String(describing: error))")
        #expect(configError(file: #"{"tvs":[{"host":"192.0.2.5","name":"Den\u0007"}]}"#) != nil)
        #expect(configError(file: #"{"tvs":[{"host":"192.0.2.5","name":"\#(String(long.dropLast()))"}]}"#) == nil)
    }
}
