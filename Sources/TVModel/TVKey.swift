/// A key: from the vocabulary shared by every vendor, or the vendor's own name.
public enum TVKey: Equatable, Sendable, CustomStringConvertible {
    case shared(SharedKey)
    case vendor(String)

    /// The longest key name, in bytes (names are ASCII letters, digits and `_`).
    public static let maxNameLength = 64

    /// Shared names win ("home" is `.shared(.home)`); anything else is a vendor key name.
    public init(_ name: String) {
        self = SharedKey(rawValue: name).map(TVKey.shared) ?? .vendor(name)
    }

    public var description: String {
        switch self {
        case .shared(let key): key.rawValue
        case .vendor(let name): name
        }
    }
}
