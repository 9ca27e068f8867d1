/// The PIN a TV shows while pairing, typed back by the user (`tv2mqtt pair --pin`, the `pin`
/// of `bridge/request/tv/pair`). A secret: never logged or published.
public enum PairingPIN {
    public static let maxLength = 12

    /// ASCII digits only, 1 to `maxLength` of them: anything else cannot be a PIN a TV shows.
    public static func isValid(_ pin: String) -> Bool {
        !pin.isEmpty && pin.utf8.count <= maxLength && pin.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    public static let refusal = "a pairing PIN is 1 to \(maxLength) digits, as the TV shows it"
}
