/// The picture of an app, as a TV gives it (Roku `/query/icon/<id>`): published as raw bytes
/// on `<base>/<tv>/app_icon` for Home Assistant's MQTT `image` entity (README › MQTT topics and
/// commands).
public struct AppIcon: Equatable, Sendable {
    public var bytes: [UInt8]
    /// `image/png`, `image/jpeg`…: from the bytes themselves (`imageType`), which the TV's
    /// header must agree with.
    public var contentType: String

    public init(bytes: [UInt8], contentType: String) {
        self.bytes = bytes
        self.contentType = contentType
    }

    /// The largest icon kept and published. Roku icons are a few to some 40 KB; a bigger answer
    /// is not an icon we want in every MQTT client's memory (and the broker's retained store).
    public static let maxBytes = 256 * 1024

    /// The image type the bytes start with (PNG, JPEG, GIF, WebP), or nil for anything else:
    /// an icon is published only when it is a picture a browser shows.
    public static func imageType(of bytes: [UInt8]) -> String? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        return nil
    }

    /// The types published: what TVs' icons are. Home Assistant's image entity declares one
    /// `content_type` for every picture (`EntityTable.appIconContentType`, PNG); a JPEG under
    /// it is still shown, as every image decoder tells the two apart by their first bytes.
    /// GIF (animated, any size) and WebP, which not every Home Assistant client shows, are
    /// not published as what they are not.
    public static let publishedTypes = ["image/png", "image/jpeg"]

    /// An icon from a TV's answer: nil when it is empty, too large, or not of a published type
    /// (a `declaredType` that is not `image/…` is refused too).
    public static func decode(_ bytes: [UInt8], declaredType: String?) -> AppIcon? {
        guard !bytes.isEmpty, bytes.count <= maxBytes, let type = imageType(of: bytes), publishedTypes.contains(type)
        else { return nil }
        if let declared = declaredType?.lowercased(), !declared.isEmpty, !declared.hasPrefix("image/") { return nil }
        return AppIcon(bytes: bytes, contentType: type)
    }
}
