import Wire

/// The file's `roku` section.
public struct RokuSettings: VendorSettings, Equatable {
    /// `roku.ecp2`: whether a Roku driver opens an ECP-2 session.
    public enum ECP2: String, Sendable, Equatable {
        /// Open an ECP-2 session where the Roku offers one.
        case auto
        /// HTTP ECP only.
        case off
    }

    public init() {}

    public var ecp2 = ECP2.auto

    public var effectiveMembers: [String: JSONValue] { ["ecp2": .string(ecp2.rawValue)] }

    static let configuration = VendorConfiguration(key: "roku", section: RokuSettings.self) {
        value, reader throws(ConfigError) in
        let members = try reader.object(value, "roku", allowed: ["ecp2"])
        var roku = RokuSettings()
        if let ecp2 = try reader.choice(members["ecp2"], "roku.ecp2", ["auto", "off"]) {
            roku.ecp2 = ECP2(rawValue: ecp2)!
        }
        return roku
    }
}
