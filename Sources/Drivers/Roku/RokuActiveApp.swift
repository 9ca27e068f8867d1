/// `GET /query/active-app`: what is in the foreground.
///
/// The home screen comes in three shapes: a bare `<app>Roku</app>` without an id (older
/// firmware), id `562859` "Roku Dynamic Menu" (newer firmware), or `type="home"`. All three
/// become `isHome` with the name "Roku" and no app id: the home screen is not an app one
/// launches, and "Roku" is what Home Assistant's own Roku integration shows for it.
public struct RokuActiveApp: Equatable, Sendable {
    /// The app's name; "Roku" on the home screen.
    public var name: String
    /// nil on the home screen.
    public var id: String?
    public var type: String?
    public var isHome: Bool
    /// The screensaver's name when one is showing over the app.
    public var screensaver: String?

    public static let homeID = "562859"
    public static let homeName = "Roku"

    public init(
        name: String, id: String?, type: String? = nil, isHome: Bool = false, screensaver: String? = nil
    ) {
        self.name = name
        self.id = id
        self.type = type
        self.isHome = isHome
        self.screensaver = screensaver
    }

    /// A TV input is in the foreground (`tvinput.hdmi1`…).
    public var isInput: Bool { type == "tvin" || (id?.hasPrefix("tvinput.") ?? false) }

    public static func parse(_ bytes: [UInt8]) throws(DriverError) -> RokuActiveApp {
        let root = try RokuXML.root(bytes, named: "active-app", what: "active app")
        guard let app = root.firstChild(named: "app") else {
            throw DriverError(.badResponse, "the Roku's active app has no <app>")
        }
        let id = RokuXML.nonEmpty(app.attribute("id"))
        let type = RokuXML.nonEmpty(app.attribute("type"))
        let name = RokuXML.nonEmpty(app.trimmedText)
        let screensaver = root.firstChild(named: "screensaver").map {
            RokuXML.nonEmpty($0.trimmedText) ?? "screensaver"
        }
        let isHome =
            id == homeID || type == "home"
            || (id == nil && (name == nil || name == "Roku" || name == "Home"))
        if isHome {
            return RokuActiveApp(
                name: homeName, id: nil, type: type, isHome: true, screensaver: screensaver)
        }
        return RokuActiveApp(
            name: name ?? id ?? "unknown", id: id, type: type, screensaver: screensaver)
    }
}
