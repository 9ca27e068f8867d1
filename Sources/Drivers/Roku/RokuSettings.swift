import Wire

/// The file's `roku` section.
public struct RokuSettings: VendorSettings, Equatable {
    public init() {}

    /// `roku.ecp2`: whether a Roku driver opens an ECP-2 session.
    public var ecp2 = DriverSettings.RokuECP2.auto

    public var effectiveMembers: [String: JSONValue] { ["ecp2": .string(ecp2.rawValue)] }

    public func apply(to settings: inout DriverSettings) { settings.rokuECP2 = ecp2 }

    static let configuration = VendorConfiguration(key: "roku", section: RokuSettings.self) {
        value, reader throws(ConfigError) in
        let members = try reader.object(value, "roku", allowed: ["ecp2"])
        var roku = RokuSettings()
        if let ecp2 = try reader.choice(members["ecp2"], "roku.ecp2", ["auto", "off"]) {
            roku.ecp2 = DriverSettings.RokuECP2(rawValue: ecp2)!
        }
        return roku
    }
}
