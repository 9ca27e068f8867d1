/// The vendor family a TV belongs to, which decides its driver: a name that each vendor's
/// descriptor in Drivers defines (`Vendor.kind`), typed so that no module can spell it
/// differently. TVModel itself knows no vendor.
public struct TVKind: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
}
