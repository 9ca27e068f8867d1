// The configuration file: ConfigurationLoader.load reading the fuzzed bytes as the file named
// by --config (JSON parse with the loader's limits, then BridgeConfiguration.decode).

import Configuration
import Drivers
import Wire

@testable import ConfigurationLoading

/// Only `--config`: the loader reads flag values, not a command line.
private struct ConfigFlag: FlagValues {
    func has(_ name: String) -> Bool { name == "config" }
    func value(_ name: String) -> String? { name == "config" ? "fuzz.json" : nil }
    func values(_ name: String) -> [String] { value(name).map { [$0] } ?? [] }
}

/// The vendors tv2mqtt ships, as its `main.swift` lists them.
private let vendors: [Vendor] = [.roku, .samsung, .samsungLegacy, .lg]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let configuration: BridgeConfiguration
    do throws(ConfigError) {
        configuration = try ConfigurationLoader.load(arguments: ConfigFlag(), environment: [:], vendors: vendors) {
            _ in input.bytes
        }
    } catch {
        return 0
    }
    // What `check-config` prints and `bridge/info` publishes: never the password itself.
    let effective = configuration.effectiveJSON(vendors: vendors)
    let shown = effective["mqtt"]?["password"]?.stringValue
    fuzzExpect(
        shown == (configuration.mqtt.password.isEmpty ? "" : "***"), "password shown as \(String(describing: shown))")
    return 0
}
