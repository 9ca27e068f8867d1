/// A TV's id: the `<tv>` segment of its MQTT topics.
///
/// `[a-z0-9_-]+`, at most 64 characters, stable across restarts and IP changes: derived
/// from the serial number or UDN (`roku_x01900sgn8uy`, `samsung_<uuid>`) unless the
/// configuration sets one. A friendly name never appears in a topic.
public struct TVID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    /// Accepts only a valid id.
    public init?(_ rawValue: String) {
        guard Self.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// The id for a device of `kind` with this hardware identifier: lowercased, with every
    /// character outside `[a-z0-9_-]` dropped ("X01900SGN8UY" → "roku_x01900sgn8uy").
    public init?(kind: TVKind, hardwareID: String) {
        var cleaned = ""
        for character in hardwareID.lowercased().unicodeScalars
        where ("a"..."z").contains(character) || ("0"..."9").contains(character) || character == "-"
            || character == "_"
        {
            cleaned.unicodeScalars.append(character)
        }
        if cleaned.hasPrefix("uuid") { cleaned.removeFirst(4) }
        self.init("\(kind.rawValue)_\(cleaned.prefix(64 - kind.rawValue.count - 1))")
        if cleaned.isEmpty { return nil }
    }

    public static func isValid(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.utf8.allSatisfy {
                ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F || $0 == 0x2D
            }
    }

    public var description: String { rawValue }

    public static func < (lhs: TVID, rhs: TVID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = TVID(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a valid TV id ([a-z0-9_-]+)"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
