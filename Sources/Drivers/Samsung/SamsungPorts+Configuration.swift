import Wire

/// A Samsung's own keys in its `tvs` entry: `port_wss`, `port_upnp` and `inputs`.
extension VendorDriverFactory.SamsungPorts: VendorSettings {
    public init() { self.init(secure: nil) }

    /// The ports as `check-config` shows them (a TV's own inputs are not shown).
    public var effectiveMembers: [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        if let secure { members["port_wss"] = .integer(Int64(secure)) }
        if let upnp { members["port_upnp"] = .integer(Int64(upnp)) }
        return members
    }

    /// nil when the entry has none of these keys.
    static func decode(_ members: [String: JSONValue], path: String, _ reader: ConfigReader) throws(ConfigError)
        -> Self?
    {
        var ports = Self()
        ports.secure = try reader.port(members["port_wss"], "\(path).port_wss")
        ports.upnp = try reader.port(members["port_upnp"], "\(path).port_upnp")
        if let inputs = members["inputs"] {
            ports.inputs = try SamsungSettings.decodeInputs(inputs, reader, path: "\(path).inputs")
        }
        return ports == Self() ? nil : ports
    }
}
