import Drivers
import TestSupport
import Testing

@testable import Bridge
@testable import ConfigurationLoading

/// `samsung.inputs` in the configuration file: what loads, and what check-config refuses.
@Suite("Configuration: samsung.inputs", .cpuBound)
struct SamsungInputsConfigTests {
    @Test("a table of name → keys loads as written; absent, the driver's defaults apply")
    func loads() throws {
        let config = try loadConfig(
            file: #"{"samsung":{"inputs":{"HDMI 1":["KEY_HDMI1"],"Console":["KEY_SOURCE","KEY_RIGHT","KEY_ENTER"]}}}"#)
        #expect(
            config.vendorSettings[SamsungSettings.self].inputs == [
                "HDMI 1": ["KEY_HDMI1"], "Console": ["KEY_SOURCE", "KEY_RIGHT", "KEY_ENTER"],
            ])
        #expect(try loadConfig().vendorSettings[SamsungSettings.self].inputs.isEmpty)
    }

    @Test("a TV's own tvs[].inputs replaces samsung.inputs for that TV (the driver factory gets it by id and host)")
    func perTV() throws {
        let config = try loadConfig(
            file: #"{"tvs":[{"host":"192.0.2.7","kind":"samsung","id":"den","inputs":{"PC":["KEY_HDMI2"]}}]}"#)
        #expect(config.tvs.first?.vendorOptions[SamsungTVOptions.self].inputs == ["PC": ["KEY_HDMI2"]])
        let options = VendorDriverFactory(configuration: config, vendors: .shipped, logger: .disabled).tvOptions
        #expect(options["den"]?.vendorKeys[SamsungTVOptions.self].inputs == ["PC": ["KEY_HDMI2"]])
        #expect(options["192.0.2.7"]?.vendorKeys[SamsungTVOptions.self].inputs == ["PC": ["KEY_HDMI2"]])
        let refused = configError(file: #"{"tvs":[{"host":"192.0.2.7","inputs":{"X":["KEY_POWER"]}}]}"#) ?? ""
        #expect(refused.contains("tvs[0].inputs"), "\(refused)")
    }

    @Test(
        "refused with the reason: KEY_POWER, unknown keys, not a list, not an object",
        arguments: [
            (#"{"samsung":{"inputs":{"X":["KEY_POWER"]}}}"#, "KEY_POWER"),
            (#"{"samsung":{"inputs":{"X":["KEY_NOPE"]}}}"#, "allowlist"),
            (#"{"samsung":{"inputs":{"X":"KEY_HDMI1"}}}"#, "samsung.inputs.X"),
            (#"{"samsung":{"inputs":{"X":[1]}}}"#, "samsung.inputs.X"),
            (#"{"samsung":{"inputs":["KEY_HDMI1"]}}"#, "samsung.inputs"),
            (#"{"samsung":{"inputs":{"X":[]}}}"#, "1 to 16 keys"),
        ])
    func refused(file: String, mentions: String) {
        let error = configError(file: file) ?? ""
        #expect(error.contains(mentions), "\(error)")
    }
}
