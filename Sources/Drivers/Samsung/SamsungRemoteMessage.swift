import Wire

/// A message tv2mqtt sends on the remote channel. `text` is the exact JSON sent (keys sorted,
/// as `JSONValue` serialises them; the TV does not care about order).
public enum SamsungRemoteMessage: Equatable, Sendable {
    /// How a key is pressed: `Click` (press and release), or `Press` … `Release` for a hold.
    public enum KeyAction: String, Sendable {
        case click = "Click"
        case press = "Press"
        case release = "Release"
    }

    /// How `ed.apps.launch` starts an app: `DEEP_LINK` for web apps (`app_type` 2),
    /// `NATIVE_LAUNCH` for native ones (and the browser, with the URL as `metaTag`).
    public enum LaunchType: String, Sendable {
        case deepLink = "DEEP_LINK"
        case nativeLaunch = "NATIVE_LAUNCH"

        /// The type for an app of `ed.installedApp.get`'s `app_type` (2 = web app).
        public init(appType: Int?) {
            self = appType == 2 || appType == nil ? .deepLink : .nativeLaunch
        }
    }

    /// `ms.remote.control` / `SendRemoteKey` with a `KEY_…` code.
    case key(String, KeyAction)
    /// `SendInputString`: text typed into the on-screen keyboard (sent base64 of UTF-8).
    case text(String)
    /// `SendInputEnd`: closes the keyboard after `text`.
    case textEnd
    /// `ed.installedApp.get`: asks for the app list (answered on older firmware only).
    case installedApps
    /// `ed.apps.launch`.
    case launch(appID: String, type: LaunchType, metaTag: String)
    /// `ed.apps.icon`: the picture at an app's `icon` path (samsungtvws `App.icon`).
    case appIcon(path: String)

    public var json: JSONValue {
        switch self {
        case .key(let code, let action):
            return Self.remoteControl([
                "Cmd": .string(action.rawValue), "DataOfCmd": .string(code), "Option": "false",
                "TypeOfRemote": "SendRemoteKey",
            ])
        case .text(let text):
            return Self.remoteControl([
                "Cmd": .string(Base64.encode(Array(text.utf8))), "DataOfCmd": "base64",
                "TypeOfRemote": "SendInputString",
            ])
        case .textEnd:
            return Self.remoteControl(["TypeOfRemote": "SendInputEnd"])
        case .installedApps:
            return [
                "method": "ms.channel.emit", "params": ["event": "ed.installedApp.get", "to": "host"],
            ]
        case .appIcon(let path):
            return [
                "method": "ms.channel.emit",
                "params": ["event": "ed.apps.icon", "to": "host", "data": ["iconPath": .string(path)]],
            ]
        case .launch(let appID, let type, let metaTag):
            let data: JSONValue = [
                "appId": .string(appID), "action_type": .string(type.rawValue), "metaTag": .string(metaTag),
            ]
            return [
                "method": "ms.channel.emit",
                "params": ["event": "ed.apps.launch", "to": "host", "data": data],
            ]
        }
    }

    /// The WebSocket text frame's payload.
    public var text: String { json.serialized() }

    private static func remoteControl(_ params: JSONValue) -> JSONValue {
        ["method": "ms.remote.control", "params": params]
    }
}
