// The configuration file: ConfigurationLoader.load reading the fuzzed bytes as the file named
// by --config (JSON parse with the loader's limits, then BridgeConfiguration.decode).

import Wire

@testable import Bridge

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    var arguments = ParsedArguments()
    arguments.flags["config"] = ["fuzz.json"]
    let configuration: BridgeConfiguration
    do throws(ConfigError) {
        configuration = try ConfigurationLoader.load(arguments: arguments, environment: [:]) { _ in input.bytes }
    } catch {
        return 0
    }
    // What `check-config` prints and `bridge/info` publishes: never the password itself.
    let effective = configuration.effectiveJSON()
    let shown = effective["mqtt"]?["password"]?.stringValue
    fuzzExpect(
        shown == (configuration.mqtt.password.isEmpty ? "" : "***"), "password shown as \(String(describing: shown))")
    return 0
}
