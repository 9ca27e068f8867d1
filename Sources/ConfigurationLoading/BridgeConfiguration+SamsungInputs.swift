import Bridge
import Drivers
import Wire

/// `samsung.inputs` (and a TV's own `tvs[].inputs`): `{"HDMI 1": ["KEY_HDMI1"], "Apple TV": ["KEY_SOURCE", "KEY_RIGHT", "KEY_ENTER"]}`,
/// checked against the Samsung key allowlist (`SamsungInputs.problem`), so check-config
/// refuses a key the driver would refuse at every command.
extension BridgeConfiguration {
    static func decodeSamsungInputs(_ value: JSONValue, _ reader: ConfigReader, path: String) throws(ConfigError)
        -> [String: [String]]
    {
        guard let entries = value.objectValue else {
            throw reader.fail(
                path, "expected an object of name: [keys], such as {\"HDMI 1\": [\"KEY_HDMI1\"]}")
        }
        var table: [String: [String]] = [:]
        for (name, keys) in entries {
            guard let list = keys.arrayValue?.compactMap(\.stringValue), list.count == keys.arrayValue?.count
            else {
                throw reader.fail("\(path).\(name)", "expected a list of key names such as [\"KEY_HDMI1\"]")
            }
            table[name] = list
        }
        if let problem = SamsungInputs.problem(in: table) { throw reader.fail(path, problem) }
        return table
    }
}
