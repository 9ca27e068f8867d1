/// One entry of `GET /query/apps` (or the app in `/query/active-app`).
///
/// The id and type are attributes and the name is the text:
/// `<app id="12" type="appl" version="4.1.218">Netflix</app>`. TV inputs are apps of type
/// `tvin` (`tvinput.hdmi1`, `tvinput.dtv`, `tvinput.cvbs`).
public struct RokuApp: Equatable, Sendable {
    public var id: String
    public var name: String
    /// `appl`, `tvin`, `home`, `ssvr`…; old firmware leaves it out (then `appl`).
    public var type: String

    public init(id: String, name: String, type: String = "appl") {
        self.id = id
        self.name = name
        self.type = type
    }

    /// A TV input (HDMI, antenna, AV), switched to like an app.
    public var isInput: Bool { type == "tvin" || id.hasPrefix("tvinput.") }

    /// The list of installed apps and inputs, in the TV's order. Entries without an id or a
    /// name are skipped (nothing could launch them), as are duplicate ids.
    public static func parseList(_ bytes: [UInt8]) throws(DriverError) -> [RokuApp] {
        let root = try RokuXML.root(bytes, named: "apps", what: "app list")
        var apps: [RokuApp] = []
        var seen: Set<String> = []
        for element in root.children(named: "app") {
            guard let id = RokuXML.nonEmpty(element.attribute("id")),
                let name = RokuXML.nonEmpty(element.trimmedText), seen.insert(id).inserted
            else { continue }
            apps.append(
                RokuApp(id: id, name: name, type: RokuXML.nonEmpty(element.attribute("type")) ?? "appl"))
        }
        return apps
    }
}
