import Drivers

extension [Vendor] {
    /// The vendors tv2mqtt ships, as its `main.swift` lists them (`VendorsEverywhereTests`
    /// checks that the two agree through `tv2mqtt --help`).
    public static let shipped: [Vendor] = [.roku, .samsung, .samsungLegacy, .lg, .androidTV]
}
