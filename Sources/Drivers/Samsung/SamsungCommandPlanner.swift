import TVModel

/// A command resolved against what one Samsung has: exactly what `SamsungDriver.execute` does.
/// Produced by `SamsungCommandPlanner`, so validation and execution cannot disagree.
public enum SamsungAction: Equatable, Sendable {
    /// Messages (and pauses) on the remote channel, in order.
    case remote([SamsungRemoteStep])
    /// The power logic (REST state check, Wake-on-LAN, KEY_POWER), never a blind toggle.
    case power(PowerAction)
    /// `ed.apps.launch` (REST as a fallback) of an app the TV has, then noted as in front.
    case launch(appID: String, type: SamsungRemoteMessage.LaunchType, metaTag: String)
    /// UPnP RenderingControl SetVolume.
    case volume(Int)
    /// UPnP RenderingControl SetMute.
    case mute(Bool)
    /// The Frame's art channel: art (`true`) or TV (`SamsungDriver+Art.swift`).
    case artMode(Bool)
}

/// Checks a command against one Samsung and turns it into a `SamsungAction` (README › MQTT topics
/// and commands: every command is validated before anything is sent). Pure: tested without a
/// device. The same shape as `RokuCommandPlanner`: `plan(_:)` is `SamsungDriver.plan`'s whole work.
public struct SamsungCommandPlanner: Sendable {
    /// Apps from `ed.installedApp.get`, with their launch type, when the TV answered it.
    public var installed: [SamsungInstalledApp]
    /// The apps last described (remembered, or seen in front).
    public var known: [TVApp]
    /// `samsung.apps` from the configuration: name → id.
    public var configured: [String: String]
    /// The `input` select's options and their keys (`samsung.inputs`, or the defaults).
    public var inputs: SamsungInputs
    /// `FrameTVSupport`: `art_mode` commands are accepted.
    public var frameTV: Bool

    public init(
        installed: [SamsungInstalledApp], known: [TVApp], configured: [String: String],
        inputs: SamsungInputs = SamsungInputs(), frameTV: Bool = false
    ) {
        self.installed = installed
        self.known = known
        self.configured = configured
        self.inputs = inputs
        self.frameTV = frameTV
    }

    /// The command's limits were checked once, by `TVCommand.checked()`; what is checked here
    /// is what this TV accepts.
    public func plan(_ checked: CheckedCommand) throws(CommandRejection) -> SamsungAction {
        let command = checked.command
        switch command {
        case .key(let key, let count):
            return try SamsungCommandSteps.key(key, repeat: count)
        case .power(let action):
            return .power(action)
        case .text(let text):
            return .remote(SamsungCommandSteps.text(text))
        case .input(let name):
            return .remote(try inputs.steps(for: name))
        case .app(let name):
            let app = try resolveApp(name)
            return .launch(appID: app.id, type: app.type, metaTag: "")
        case .launch(let appID, let contentID, _):
            try Self.checkAppID(appID)
            let type = installed.first { $0.appID == appID }?.launchType ?? .deepLink
            return .launch(appID: appID, type: type, metaTag: contentID ?? "")
        case .volume(let level):
            return .volume(level)
        case .mute(let muted):
            return .mute(muted)
        case .channel:
            throw CommandRejection(
                "channel: tuning by channel number is for Roku TVs with a tuner; use channel_up and channel_down")
        case .holdKey(let key, let milliseconds):
            return .remote(try SamsungCommandSteps.hold(key, milliseconds: milliseconds))
        case .search:
            throw CommandRejection(
                "search is a Roku feature; a Samsung TV has no search request (type into its search app with text instead)"
            )
        case .control(SamsungArtMode.control.key, let value):
            guard frameTV else {
                throw CommandRejection(
                    "this TV has no art mode (its REST API does not report FrameTVSupport); art_mode is for The Frame")
            }
            return .artMode(value == "ON")
        case .control, .screen, .soundOutput, .toast:
            throw .notSupported(command)
        }
    }

    /// An app the TV has, by name (case-insensitive) or id: the installed list, the apps last
    /// described, or the configured `samsung.apps` map.
    public func resolveApp(_ nameOrID: String) throws(CommandRejection)
        -> (id: String, type: SamsungRemoteMessage.LaunchType)
    {
        let wanted = nameOrID.lowercased()
        if let app = installed.first(where: { $0.appID == nameOrID || $0.name.lowercased() == wanted }) {
            return (app.appID, app.launchType)
        }
        if let app = known.first(where: { $0.id == nameOrID || $0.name.lowercased() == wanted }) {
            return (app.id, .deepLink)
        }
        if let entry = configured.first(where: { $0.value == nameOrID || $0.key.lowercased() == wanted }) {
            return (entry.value, .deepLink)
        }
        throw CommandRejection(
            "app \"\(nameOrID.prefix(64))\" is not known on this TV; add it to samsung.apps (name → id) in the configuration"
        )
    }

    /// Ids go into a URL path and a JSON string. Samsung's are digits (`3201907018807`) or
    /// Tizen package names (`org.tizen.browser`, `9Ur5IzDKqV.TizenYouTube`): letters, digits,
    /// '.', '_' and '-' only, so no '/', '%' or quote can reach the TV.
    static func checkAppID(_ appID: String) throws(CommandRejection) {
        guard !appID.isEmpty, appID.utf8.count <= 128,
            appID.unicodeScalars.allSatisfy({
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "."
                    || $0 == "_" || $0 == "-"
            })
        else {
            throw CommandRejection(
                "app id \"\(appID.prefix(64))\" is not a Samsung app id (letters, digits, '.', '_' or '-')")
        }
    }
}
