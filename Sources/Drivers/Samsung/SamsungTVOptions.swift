import Wire

/// A Samsung's own keys in its `tvs` entry: its remote-channel and UPnP ports (`port_wss`,
/// `port_upnp`; nil means the defaults, 8002 and 9197) and its `inputs`.
public struct SamsungTVOptions: VendorSettings, Equatable {
    public var secure: UInt16?
    public var upnp: UInt16?
    /// The TV's own `inputs` (`tvs[].inputs`), instead of `samsung.inputs`.
    public var inputs: [String: [String]]?

    public init(secure: UInt16? = nil, upnp: UInt16? = nil, inputs: [String: [String]]? = nil) {
        self.secure = secure
        self.upnp = upnp
        self.inputs = inputs
    }

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
        var options = Self()
        options.secure = try reader.port(members["port_wss"], "\(path).port_wss")
        options.upnp = try reader.port(members["port_upnp"], "\(path).port_upnp")
        if let inputs = members["inputs"] {
            options.inputs = try SamsungSettings.decodeInputs(inputs, reader, path: "\(path).inputs")
        }
        return options == Self() ? nil : options
    }
}
