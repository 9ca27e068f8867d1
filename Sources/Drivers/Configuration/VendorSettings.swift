import Wire

/// What a vendor's configuration holds: its section's settings (the file's `roku`, `samsung`)
/// or one TV's own options (the vendor's extra keys of a `tvs` entry). `init()` gives the defaults.
/// The vendor's drivers are handed both (`Vendor.MakeDrivers`, `TVOptions`).
public protocol VendorSettings: Sendable {
    init()
    /// As `check-config` and `bridge/info` show it, secrets masked: a section's members, or the
    /// members a TV's options add to its `tvs` entry.
    var effectiveMembers: [String: JSONValue] { get }
    /// The same settings for one command and out (`pair`, `send`): nothing that outlives it.
    var forOneCommand: Self { get }
    func isEqual(to other: any VendorSettings) -> Bool
}

extension VendorSettings {
    public var forOneCommand: Self { self }
}

extension VendorSettings where Self: Equatable {
    public func isEqual(to other: any VendorSettings) -> Bool { (other as? Self) == self }
}
