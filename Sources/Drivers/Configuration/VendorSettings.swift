import Wire

/// What a vendor's configuration holds: its section's settings (the file's `roku`, `samsung`)
/// or one TV's own options (the vendor's extra keys of a `tvs` entry). `init()` gives the defaults.
public protocol VendorSettings: Sendable {
    init()
    /// As `check-config` and `bridge/info` show it, secrets masked: a section's members, or the
    /// members a TV's options add to its `tvs` entry.
    var effectiveMembers: [String: JSONValue] { get }
    /// The same settings for one command and out (`pair`, `send`): nothing that outlives it.
    var forOneCommand: Self { get }
    /// Hands what every driver of the vendor reads to the drivers' settings.
    func apply(to settings: inout DriverSettings)
    func isEqual(to other: any VendorSettings) -> Bool
}

extension VendorSettings {
    public var forOneCommand: Self { self }
    public func apply(to settings: inout DriverSettings) {}
}

extension VendorSettings where Self: Equatable {
    public func isEqual(to other: any VendorSettings) -> Bool { (other as? Self) == self }
}

/// Vendors' settings, one value per settings type, held without the holder naming a vendor.
/// A type not set reads as its defaults.
public struct VendorSettingsBag: Sendable, Equatable {
    private var values: [ObjectIdentifier: any VendorSettings] = [:]

    public init() {}

    public subscript<Settings: VendorSettings>(_ type: Settings.Type) -> Settings {
        get { values[ObjectIdentifier(type)] as? Settings ?? Settings() }
        set { values[ObjectIdentifier(type)] = newValue }
    }

    /// Whether a value of `type` was set (a TV's options are only held when given).
    public func contains<Settings: VendorSettings>(_ type: Settings.Type) -> Bool {
        values[ObjectIdentifier(type)] != nil
    }

    public var isEmpty: Bool { values.isEmpty }

    mutating func set(_ value: any VendorSettings) { values[ObjectIdentifier(type(of: value))] = value }

    /// Every vendor section's values for one command and out (see `VendorSettings.forOneCommand`),
    /// the defaults of a section never read included.
    public var forOneCommand: VendorSettingsBag {
        var bag = self
        for section in Vendors.all.compactMap(\.configuration) { section.setForOneCommand(&bag) }
        return bag
    }

    public static func == (lhs: VendorSettingsBag, rhs: VendorSettingsBag) -> Bool {
        lhs.values.count == rhs.values.count
            && lhs.values.allSatisfy { key, value in rhs.values[key].map(value.isEqual) ?? false }
    }
}
