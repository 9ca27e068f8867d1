import Wire

/// A vendor's part of the configuration file: its section (`"roku": {…}`) and the extra keys it
/// accepts in each `tvs` entry. The loader decodes, and `check-config` shows, every vendor's
/// part through this, so neither names a vendor.
public struct VendorConfiguration: Sendable {
    /// The section's key at the top of the file.
    public let key: String
    /// The keys a `tvs` entry may carry for this vendor (besides the common ones).
    public let tvKeys: Set<String>
    private let sectionFromJSON: @Sendable (JSONValue?, ConfigReader) throws(ConfigError) -> any VendorSettings
    private let tvOptionsFromJSON:
        @Sendable ([String: JSONValue], String, ConfigReader) throws(ConfigError) -> (any VendorSettings)?
    private let read: @Sendable (VendorSettingsBag) -> any VendorSettings
    private let readTV: @Sendable (VendorSettingsBag) -> (any VendorSettings)?
    private let readForOneCommand: @Sendable (VendorSettingsBag) -> any VendorSettings

    /// - Parameters:
    ///   - decode: reads the section (nil when the file has none: the defaults), checking its
    ///     keys with `reader.object(value, key, allowed:)`; errors name the key path.
    ///   - decodeTV: reads a `tvs` entry's members (at `path`, such as `tvs[0]`); nil when the
    ///     entry has none of `tvKeys`.
    public init<Section: VendorSettings, EntryKeys: VendorSettings>(
        key: String, section: Section.Type,
        decode: @escaping @Sendable (JSONValue?, ConfigReader) throws(ConfigError) -> Section,
        tvKeys: Set<String>, tvOptions: EntryKeys.Type,
        decodeTV: @escaping @Sendable ([String: JSONValue], String, ConfigReader) throws(ConfigError) -> EntryKeys?
    ) {
        self.key = key
        self.tvKeys = tvKeys
        sectionFromJSON = { value, reader throws(ConfigError) in try decode(value, reader) }
        tvOptionsFromJSON = { members, path, reader throws(ConfigError) in try decodeTV(members, path, reader) }
        read = { $0[Section.self] }
        readForOneCommand = { $0[Section.self].forOneCommand }
        readTV = { $0.contains(EntryKeys.self) ? $0[EntryKeys.self] : nil }
    }

    /// A section without keys in `tvs` entries.
    public init<Section: VendorSettings>(
        key: String, section: Section.Type,
        decode: @escaping @Sendable (JSONValue?, ConfigReader) throws(ConfigError) -> Section
    ) {
        self.init(
            key: key, section: section, decode: decode, tvKeys: [], tvOptions: NoTVOptions.self,
            decodeTV: { _, _, _ throws(ConfigError) in nil })
    }

    /// Decodes the section into `bag`.
    public func decode(_ value: JSONValue?, into bag: inout VendorSettingsBag, _ reader: ConfigReader)
        throws(ConfigError)
    {
        bag.set(try sectionFromJSON(value, reader))
    }

    /// Decodes a `tvs` entry's vendor keys into the TV's `bag`.
    public func decodeTV(
        _ members: [String: JSONValue], path: String, into bag: inout VendorSettingsBag, _ reader: ConfigReader
    ) throws(ConfigError) {
        if let options = try tvOptionsFromJSON(members, path, reader) { bag.set(options) }
    }

    /// The section as `check-config` shows it.
    public func effective(_ bag: VendorSettingsBag) -> JSONValue { .object(read(bag).effectiveMembers) }

    /// The members a TV's options add to its entry in `check-config`.
    public func effectiveTV(_ bag: VendorSettingsBag) -> [String: JSONValue] { readTV(bag)?.effectiveMembers ?? [:] }

    /// Sets the section's values for one command and out (read or not, see `VendorSettings.forOneCommand`).
    func setForOneCommand(_ bag: inout VendorSettingsBag) { bag.set(readForOneCommand(bag)) }
}

/// The TV options of a vendor whose `tvs` entries carry no keys of their own.
public struct NoTVOptions: VendorSettings, Equatable {
    public init() {}
    public var effectiveMembers: [String: JSONValue] { [:] }
}
