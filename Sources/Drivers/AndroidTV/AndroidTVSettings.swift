import Wire

/// The file's `androidtv` section.
public struct AndroidTVSettings: VendorSettings, Equatable {
    public init() {}

    /// `androidtv.apps`: name → app link, replacing the defaults (`AndroidTVApps.defaults`).
    public var apps: [TVApp] = AndroidTVApps.defaults
    /// `androidtv.ime`: use the input method (the app in front, text). Some TVs hide their own
    /// keyboard while a client holds it.
    public var ime = true

    public var effectiveMembers: [String: JSONValue] {
        [
            "apps": .object(
                Dictionary(apps.map { ($0.name, JSONValue.string($0.id)) }, uniquingKeysWith: { a, _ in a })),
            "ime": .bool(ime),
        ]
    }

    static let configuration = VendorConfiguration(key: "androidtv", section: AndroidTVSettings.self) {
        value, reader throws(ConfigError) in
        let members = try reader.object(value, "androidtv", allowed: ["apps", "ime"])
        var settings = AndroidTVSettings()
        if let ime = try reader.bool(members["ime"], "androidtv.ime") { settings.ime = ime }
        if let apps = members["apps"] {
            guard let entries = apps.objectValue else {
                throw reader.fail("androidtv.apps", "expected an object of name: app link")
            }
            settings.apps = try entries.sorted { $0.key < $1.key }.map { (name, link) throws(ConfigError) in
                guard let text = link.stringValue, AndroidTVPlanner.isAppLink(text), !name.isEmpty,
                    name.utf8.count <= 64
                else {
                    throw reader.fail(
                        "androidtv.apps.\(name)",
                        "expected an app link such as \"https://www.netflix.com/title\" or \"market://launch?id=com.netflix.ninja\", or a package name"
                    )
                }
                return TVApp(id: text.contains("://") ? text : "market://launch?id=" + text, name: name)
            }
        }
        return settings
    }
}
