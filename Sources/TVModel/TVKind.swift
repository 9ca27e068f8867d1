/// The vendor family a TV belongs to, which decides its driver.
public enum TVKind: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case roku
    case samsung
    /// A pre-2016 Samsung (C/D/E/F series, non-encrypted 2014–2015 models): the legacy remote
    /// protocol on TCP 55000, keys and power off only.
    case samsungLegacy = "samsung-legacy"

    public var description: String { rawValue }

    /// The port a TV of this kind answers on by default (Roku ECP 8060, Samsung REST 8001,
    /// the legacy Samsung remote 55000).
    public var defaultPort: UInt16 {
        switch self {
        case .roku: 8060
        case .samsung: 8001
        case .samsungLegacy: 55000
        }
    }
}
