import Wire

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

    /// The values of both, `other`'s where both hold one of a type.
    public func merging(_ other: VendorSettingsBag) -> VendorSettingsBag {
        var bag = self
        bag.values.merge(other.values) { $1 }
        return bag
    }

    /// The sections of `vendors` for one command and out (see `VendorSettings.forOneCommand`),
    /// the defaults of a section never read included.
    public func forOneCommand(of vendors: [Vendor]) -> VendorSettingsBag {
        var bag = self
        for section in vendors.compactMap(\.configuration) { section.setForOneCommand(&bag) }
        return bag
    }

    public static func == (lhs: VendorSettingsBag, rhs: VendorSettingsBag) -> Bool {
        lhs.values.count == rhs.values.count
            && lhs.values.allSatisfy { key, value in rhs.values[key].map(value.isEqual) ?? false }
    }
}
