/// The form of the PIN a vendor's TVs show while pairing, typed back by the user
/// (`tv2mqtt pair --pin`, the `pin` of `bridge/request/tv/pair`, Home Assistant's pairing code
/// text): each vendor declares its own in its descriptor. A PIN is a secret: never logged or
/// published.
public struct PairingPIN: Equatable, Sendable {
    public enum Alphabet: Equatable, Sendable {
        case digits
        /// 0-9 and A-F, in either case.
        case hexadecimal
    }

    public let alphabet: Alphabet
    public let lengths: ClosedRange<Int>

    /// The longest PIN of any vendor: what a caller that does not know the TV's vendor accepts.
    public static let maxLength = 12

    public init(_ alphabet: Alphabet, lengths: ClosedRange<Int>) {
        self.alphabet = alphabet
        self.lengths = lengths
    }

    /// Digits, as many as the TV shows (LG: the TV decides).
    public static let digits = PairingPIN(.digits, lengths: 1...maxLength)
    /// Six hexadecimal digits (Android TV).
    public static let sixHexDigits = PairingPIN(.hexadecimal, lengths: 6...6)

    /// Whether `pin` has this form: it goes to the TV as it is, so nothing else is allowed in it.
    public func accepts(_ pin: String) -> Bool {
        lengths.contains(pin.utf8.count) && pin.utf8.allSatisfy(isInAlphabet)
    }

    /// What a PIN of this form is, for the refusal of one that is not.
    public var refusal: String {
        let count = lengths.count == 1 ? "\(lengths.lowerBound)" : "\(lengths.lowerBound) to \(lengths.upperBound)"
        let kind = alphabet == .digits ? "digits" : "hexadecimal digits (0-9, A-F)"
        return "a pairing PIN is \(count) \(kind), as the TV shows it"
    }

    /// Whether `pin` could be any vendor's PIN: 1 to `maxLength` ASCII letters and digits. What
    /// a caller checks before the TV's vendor, which checks its own form, is known.
    public static func isPlausible(_ pin: String) -> Bool {
        (1...maxLength).contains(pin.utf8.count) && pin.utf8.allSatisfy { isDigit($0) || isLetter($0) }
    }

    public static let plausibleRefusal = "a pairing PIN is 1 to \(maxLength) letters or digits, as the TV shows it"

    private func isInAlphabet(_ byte: UInt8) -> Bool {
        switch alphabet {
        case .digits: Self.isDigit(byte)
        case .hexadecimal: Self.isDigit(byte) || Self.isHexLetter(byte)
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isHexLetter(_ byte: UInt8) -> Bool { (0x41...0x46).contains(byte & ~0x20) }
    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte & ~0x20) }
}
