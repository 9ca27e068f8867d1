import Wire

/// An app in the TV's `ed.installedApp.get` answer.
public struct SamsungInstalledApp: Equatable, Sendable {
    public var appID: String
    public var name: String
    /// 2 = web app (launch with DEEP_LINK); others are native (NATIVE_LAUNCH).
    public var appType: Int?
    /// The `icon` path on the TV, which `ed.apps.icon` reads (`SamsungChannel+AppIcon.swift`).
    public var iconPath: String?

    public init(appID: String, name: String, appType: Int?, iconPath: String? = nil) {
        self.appID = appID
        self.name = name
        self.appType = appType
        self.iconPath = iconPath
    }

    public var launchType: SamsungRemoteMessage.LaunchType { .init(appType: appType) }
}

/// A message the TV sends on the remote channel, decoded.
public enum SamsungEvent: Equatable, Sendable, CustomStringConvertible {
    /// `ms.channel.connect`: we are approved. The token is new (`data.token`) or repeated
    /// (`data.clients[].attributes.token`); `nil` on TVs that never issue one.
    case connected(token: SamsungToken?)
    /// `ms.channel.unauthorized`: denied on the TV, or a token TV reached on 8001.
    case unauthorized
    /// `ms.channel.timeOut`: nobody answered the prompt on the TV.
    case timeOut
    /// `ms.error` with its `data.message`.
    case error(String)
    /// `ed.installedApp.get`: the app list.
    case installedApps([SamsungInstalledApp])
    /// `ed.apps.launch` reply: `data` 200 means launched; anything else is the TV's refusal.
    case appLaunch(succeeded: Bool, detail: String)
    /// `ed.apps.icon` reply: the picture at `iconPath`, base64 (nil when the TV sent none).
    case appIcon(path: String?, imageBase64: String?)
    /// Startup chatter and notifications with nothing for us (`ms.channel.ready`,
    /// `ms.channel.clientConnect`, `ed.edenTV.update`, `ms.remote.imeStart`…).
    case ignorable(String)
    /// An event we do not know, by name.
    case other(String)

    /// Events that carry nothing we act on. `ms.remote.ime*` and `touch*` tell that the
    /// on-screen keyboard or touchpad appeared; we type blind, so they are noise too.
    public static let ignorableEvents: Set<String> = [
        "ms.channel.ready", "ms.channel.clientConnect", "ms.channel.clientDisconnect",
        "ed.edenTV.update",
        "ms.voiceApp.hide", "ms.voiceApp.show", "ms.remote.imeStart", "ms.remote.imeEnd",
        "ms.remote.imeUpdate",
        "ms.remote.imeDone", "ms.remote.touchEnable", "ms.remote.touchDisable",
    ]

    /// Decodes one text frame of the remote channel.
    ///
    /// - Throws: `DriverError` `.badResponse` for a frame that is not JSON within
    ///   `SamsungJSON.limits`, not an object, or has no `event` string.
    public static func decode(_ frame: some Collection<UInt8>) throws(DriverError) -> SamsungEvent {
        let message = try SamsungJSON.parse(frame, what: "remote-channel message")
        guard case .object = message else {
            throw DriverError(
                .badResponse, "Samsung remote-channel message is a \(message.typeName), not an object")
        }
        guard let event = message["event"]?.stringValue else {
            throw DriverError(.badResponse, "Samsung remote-channel message has no \"event\"")
        }
        let data = message["data"]
        switch event {
        case "ms.channel.connect": return .connected(token: Self.token(in: data))
        case "ms.channel.unauthorized": return .unauthorized
        case "ms.channel.timeOut": return .timeOut
        case "ms.error":
            return .error(
                SamsungJSON.string(data?["message"]) ?? SamsungJSON.string(data) ?? "no message")
        case "ed.installedApp.get": return .installedApps(Self.apps(in: data))
        case "ed.apps.icon":
            return .appIcon(
                path: SamsungJSON.string(data?["iconPath"]), imageBase64: SamsungJSON.string(data?["imageBase64"]))
        case "ed.apps.launch":
            let code = data?.intValue
            return .appLaunch(
                succeeded: code == 200, detail: SamsungJSON.string(data) ?? data?.serialized() ?? "")
        default:
            return ignorableEvents.contains(event) ? .ignorable(event) : .other(event)
        }
    }

    /// `data.token` first (a new grant), else the first client's `attributes.token` (a
    /// reconnect). A number or a string; `123456789` and `"123456789"` are the same token.
    static func token(in data: JSONValue?) -> SamsungToken? {
        if let token = tokenText(data?["token"]).flatMap(SamsungToken.init) { return token }
        for client in data?["clients"]?.arrayValue ?? [] {
            if let token = tokenText(client["attributes"]?["token"]).flatMap(SamsungToken.init) {
                return token
            }
        }
        return nil
    }

    private static func tokenText(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        default: return nil  // a fraction or an object is no token we could send back
        }
    }

    /// `data.data[]`, skipping entries without an id or name instead of failing the list.
    static func apps(in data: JSONValue?) -> [SamsungInstalledApp] {
        (data?["data"]?.arrayValue ?? []).compactMap { entry in
            guard let id = SamsungJSON.string(entry["appId"]),
                let name = SamsungJSON.string(entry["name"])
            else {
                return nil
            }
            let type =
                entry["app_type"]?.intValue ?? SamsungJSON.string(entry["app_type"]).flatMap { Int($0) }
            let icon = SamsungJSON.string(entry["icon"]).flatMap { $0.isEmpty ? nil : $0 }
            return SamsungInstalledApp(appID: id, name: name, appType: type, iconPath: icon)
        }
    }

    /// Names the event and never prints a token.
    public var description: String {
        switch self {
        case .connected(let token):
            "ms.channel.connect (\(token == nil ? "no token" : "token received"))"
        case .unauthorized: "ms.channel.unauthorized"
        case .timeOut: "ms.channel.timeOut"
        case .error(let message): "ms.error: \(message)"
        case .installedApps(let apps): "ed.installedApp.get (\(apps.count) apps)"
        case .appIcon(let path, let image):
            "ed.apps.icon (\(path ?? "no path"), \(image?.count ?? 0) base64 characters)"
        case .appLaunch(let succeeded, let detail):
            "ed.apps.launch (\(succeeded ? "ok" : "refused: \(detail)"))"
        case .ignorable(let name): name
        case .other(let name): "unknown event \(name)"
        }
    }
}
