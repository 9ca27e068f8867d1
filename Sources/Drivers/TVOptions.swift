/// What the configuration says of one TV for its driver: the keys its vendor adds to its `tvs`
/// entry (`Vendor.configuration`) and `allow_cleartext`. A TV found by discovery has none.
public struct TVOptions: Sendable, Equatable {
    /// The vendor's keys of the entry, by their settings type (Samsung's `SamsungTVOptions`).
    public var vendorKeys: VendorSettingsBag
    /// `allow_cleartext`: a TV that offers no TLS may be reached in clear.
    public var allowsCleartext: Bool

    public init(vendorKeys: VendorSettingsBag = VendorSettingsBag(), allowsCleartext: Bool = false) {
        self.vendorKeys = vendorKeys
        self.allowsCleartext = allowsCleartext
    }

    /// Both entries' options, `other`'s where both give one: a TV matched by its configured id
    /// (`other`) and by its host.
    func merging(_ other: TVOptions) -> TVOptions {
        TVOptions(
            vendorKeys: vendorKeys.merging(other.vendorKeys), allowsCleartext: allowsCleartext || other.allowsCleartext)
    }
}
