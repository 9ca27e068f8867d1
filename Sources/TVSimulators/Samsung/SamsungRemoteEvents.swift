import Wire

/// The events a simulated Samsung sends on the remote channel, shaped like captures of real
/// TVs (tvws fixtures): `event`, `data`, and `from: "host"` on replies to requests.
enum SamsungRemoteEvents {
    /// `ms.channel.connect`. `token` goes out as a JSON number, as in the fixture; the same
    /// token also sits in the client's attributes, as on a reconnect of a real TV.
    static func connect(
        clientID: String, channelID: String, encodedName: String, token: String?, connectTime: Int64
    ) -> JSONValue {
        var attributes: [String: JSONValue] = ["name": .string(encodedName)]
        if let token { attributes["token"] = .string(token) }
        var data: [String: JSONValue] = [
            "clients": [
                .object([
                    "attributes": .object(attributes), "connectTime": .integer(connectTime),
                    "deviceName": .string(encodedName), "id": .string(clientID), "isHost": false,
                ])
            ],
            "id": .string(channelID),
        ]
        if let token { data["token"] = Int64(token).map(JSONValue.integer) ?? .string(token) }
        return ["data": .object(data), "event": "ms.channel.connect"]
    }

    static let ready: JSONValue = ["data": [:], "event": "ms.channel.ready"]
    static let unauthorized: JSONValue = ["event": "ms.channel.unauthorized"]
    static let timeOut: JSONValue = ["event": "ms.channel.timeOut"]
    /// Startup noise a real TV sends around the connect (clients must ignore it).
    static let edenUpdate: JSONValue = [
        "data": ["update_type": "ed.edenApp.update"], "event": "ed.edenTV.update", "from": "host",
    ]

    static func error(_ message: String) -> JSONValue {
        ["data": ["message": .string(message)], "event": "ms.error"]
    }

    /// Where a Tizen TV keeps an app's icon (the path `ed.apps.icon` is asked for).
    static func iconPath(_ appID: String) -> String {
        "/opt/share/webappservice/apps_icon/FirstScreen/\(appID)/250x250.png"
    }

    static func installedApps(_ apps: [SamsungCatalog.App]) -> JSONValue {
        let list: [JSONValue] = apps.map { app in
            [
                "appId": .string(app.id), "app_type": .integer(Int64(app.appType)),
                "icon": .string(iconPath(app.id)),
                "is_lock": 0, "name": .string(app.name),
            ]
        }
        return ["data": ["data": .array(list)], "event": "ed.installedApp.get", "from": "host"]
    }

    /// The reply to `ed.apps.launch`: `data` 200 when launched, else the failure code.
    static func launched(_ code: Int64) -> JSONValue {
        ["data": .integer(code), "event": "ed.apps.launch", "from": "host"]
    }
}
