import Drivers
import Support

/// A name the bridge takes from MQTT (`tv/rename`, `tv/add`, app and input names in
/// commands): each is logged and published, so none may hold a control character (C0, DEL,
/// C1, the Unicode line separators), and each is bounded.
enum PrintableName {
    static let maxLength = TVDescription.maxNameLength

    static func isValid(_ text: String) -> Bool {
        !text.isEmpty && text.count <= maxLength && !text.unicodeScalars.contains(where: \.isControlCharacter)
    }
}
