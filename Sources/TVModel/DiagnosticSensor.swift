/// A diagnostic text sensor a driver declares for its TVs (`TVCapabilities.diagnosticSensors`):
/// a reading the vendor has and no other does, published without any row naming the vendor.
///
/// `key` is at once the entity's key and the state document field it reads; the driver puts the
/// value in `TVSnapshot.declared[key]`. A key that is one of the document's own fields or
/// another entity's key is ignored (`EntityTable.declaredRows`), so a driver cannot shadow them.
public struct DiagnosticSensor: Equatable, Hashable, Sendable, Codable {
    /// `[a-z0-9_]`, 1–64 characters: the entity key and state field.
    public var key: String
    /// The entity's name in Home Assistant.
    public var name: String
    /// `mdi:…`.
    public var icon: String?

    public init(key: String, name: String, icon: String? = nil) {
        self.key = key
        self.name = name
        self.icon = icon
    }

    /// The longest key accepted.
    public static let maxKeyLength = 64

    /// Whether `key` can name an entity and a JSON field without escaping or surprises.
    public var hasValidKey: Bool {
        !key.isEmpty && key.utf8.count <= Self.maxKeyLength
            && key.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}
