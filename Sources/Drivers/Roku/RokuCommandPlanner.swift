import Support
import TVModel

/// Checks a command against one Roku and turns it into a `RokuAction` (README › MQTT topics and
/// commands: every command is validated before anything is sent). Pure: tested without a device.
/// The same shape as `SamsungCommandPlanner`: `plan(_:)` is `RokuDriver.plan`'s whole work.
public struct RokuCommandPlanner: Sendable {
    public var capabilities: TVCapabilities
    /// Installed apps and inputs (type `tvin`), as last read from the device.
    public var apps: [RokuApp]
    /// The tuner's channels as last read (`/query/tv-channels`); nil = never read.
    public var channels: [RokuTVChannel]?

    public init(capabilities: TVCapabilities, apps: [RokuApp], channels: [RokuTVChannel]? = nil) {
        self.capabilities = capabilities
        self.apps = apps
        self.channels = channels
    }

    /// The command's limits were checked once, by `TVCommand.checked()`; what is checked here
    /// is what this Roku accepts.
    public func plan(_ checked: CheckedCommand) throws(CommandRejection) -> RokuAction {
        let command = checked.command
        switch command {
        case .key(let key, let count):
            return try planKey(key, repeat: count)
        case .power(let action):
            try require(.power, for: "power")
            return .power(action)
        case .app(let name):
            return try planApp(name)
        case .launch(let appID, let contentID, let mediaType):
            return try planLaunch(appID, contentID: contentID, mediaType: mediaType)
        case .text(let text):
            return .text(text.map(RokuKeys.literal))
        case .input(let name):
            return try planInput(name)
        case .volume(let level):
            guard capabilities.volumeLevel else {
                throw CommandRejection(
                    "this Roku does not report its volume level; use the volume_up, volume_down and mute keys")
            }
            return .volume(level)
        case .mute(let on):
            guard capabilities.muteState else {
                throw CommandRejection(
                    "this Roku does not report its mute state; use the mute key (VolumeMute) to toggle it")
            }
            return .mute(on)
        case .channel(let requested):
            return try planChannel(requested)
        case .holdKey(let key, let milliseconds):
            return try planHold(key, milliseconds: milliseconds)
        case .search(let request):
            try Self.checkSearch(request)
            return .search(request)
        case .control, .screen, .soundOutput, .toast:
            throw .notSupported(command)
        }
    }

    /// A held key is a plain key of the allowlist; the power keys are state-checked logic,
    /// never held.
    private func planHold(_ key: TVKey, milliseconds: Int) throws(CommandRejection) -> RokuAction {
        guard case .keypress(let name, _) = try planKey(key, repeat: 1), !name.hasPrefix("Power") else {
            throw CommandRejection("key '\(Self.printable(key.description))' cannot be held; use power ON/OFF")
        }
        return .hold(name, milliseconds: milliseconds)
    }

    private func planKey(_ key: TVKey, repeat count: Int) throws(CommandRejection) -> RokuAction {
        let name: String
        let requirement: RokuKeys.Requirement
        switch key {
        case .shared(.stop):
            throw CommandRejection(
                "a Roku has no stop key; use play_pause to pause or back to leave the video")
        case .shared(let shared):
            guard let mapped = RokuKeys.roku(shared), let entry = RokuKeys.canonical(mapped) else {
                throw CommandRejection("key '\(shared.rawValue)' has no Roku equivalent")
            }
            (name, requirement) = entry
        case .vendor(let vendor):
            guard let entry = RokuKeys.canonical(vendor) else {
                throw CommandRejection(
                    "unknown Roku key '\(Self.printable(vendor))'; known keys: \(RokuKeys.knownList)")
            }
            (name, requirement) = entry
        }
        try require(requirement, for: "key \(name)")
        // `Power` toggles: carried out as a state-checked toggle, never sent blindly.
        if name == "Power" { return .power(.toggle) }
        if name.hasPrefix("Lit_"), let character = name.dropFirst(4).first {
            try Self.checkText(String(character), field: "key", limit: 1, allowEmpty: false)
            return .keypress(RokuKeys.literal(character), repeat: count)
        }
        return .keypress(name, repeat: count)
    }

    private func require(_ requirement: RokuKeys.Requirement, for what: String)
        throws(CommandRejection)
    {
        switch requirement {
        case .any:
            return
        case .power where !capabilities.power:
            throw CommandRejection(
                "\(what): this Roku is a streaming player; it cannot switch the TV on or off")
        case .volume where !capabilities.volumeKeys:
            throw CommandRejection("\(what): this Roku is a streaming player without TV volume control")
        case .tv where !capabilities.power:
            throw CommandRejection("\(what): this Roku is a streaming player; it has no tuner or inputs")
        default:
            return
        }
    }

    private func planApp(_ requested: String) throws(CommandRejection) -> RokuAction {
        let lowered = requested.lowercased()
        if lowered == "roku" || lowered == "home" || requested == RokuActiveApp.homeID {
            return .keypress("Home", repeat: 1)
        }
        let launchable = apps.filter { !$0.isInput }
        if let app = launchable.first(where: { $0.id == requested })
            ?? launchable.first(where: { $0.name.lowercased() == lowered })
        {
            return .launch(appID: app.id, contentID: nil, mediaType: nil)
        }
        guard !launchable.isEmpty else {
            throw CommandRejection(
                "the app list of this Roku is not known yet; try again once it has answered")
        }
        let names = launchable.prefix(20).map(\.name).joined(separator: ", ")
        throw CommandRejection(
            "unknown app '\(Self.printable(requested))'; installed apps: \(names)\(launchable.count > 20 ? ", …" : "")"
        )
    }

    private func planLaunch(_ appID: String, contentID: String?, mediaType: String?)
        throws(CommandRejection)
        -> RokuAction
    {
        // A name of an installed app is accepted too; otherwise it must look like an id.
        let id = apps.first { $0.name.lowercased() == appID.lowercased() }?.id ?? appID
        guard Self.isAppID(id) else {
            throw CommandRejection(
                "launch: app id '\(Self.printable(appID))' must be letters, digits, '.', '_' or '-'")
        }
        try Self.checkMediaType(mediaType)
        return .launch(appID: id, contentID: contentID, mediaType: mediaType)
    }

    private func planInput(_ requested: String) throws(CommandRejection) -> RokuAction {
        guard capabilities.power || !capabilities.inputs.isEmpty else {
            throw CommandRejection("this Roku is a streaming player; it has no inputs")
        }
        let inputs = apps.filter(\.isInput)
        let lowered = requested.lowercased()
        if let input = inputs.first(where: {
            $0.name.lowercased() == lowered || $0.id.lowercased() == lowered
        }) {
            return .launch(appID: input.id, contentID: nil, mediaType: nil)
        }
        if let alias = RokuInputAlias.resolve(requested) {
            if inputs.contains(where: { $0.id == alias.appID }) || inputs.isEmpty {
                // Launching the input works in Limited mode, where the Input… keys do not;
                // without an app list the key is the only way.
                return inputs.isEmpty
                    ? .keypress(alias.key, repeat: 1)
                    : .launch(appID: alias.appID, contentID: nil, mediaType: nil)
            }
        }
        let names = (inputs.isEmpty ? capabilities.inputs : inputs.map(\.name)).joined(separator: ", ")
        throw CommandRejection(
            "unknown input '\(Self.printable(requested))'; inputs: \(names.isEmpty ? "none" : names)")
    }

    static func isAppID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64
            && id.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
                    || $0 == 0x2E
                    || $0 == 0x5F || $0 == 0x2D
            }
    }

    static func checkText(_ text: String, field: String, limit: Int, allowEmpty: Bool)
        throws(CommandRejection)
    {
        if text.isEmpty && !allowEmpty { throw CommandRejection("\(field): empty") }
        guard text.count <= limit else {
            throw CommandRejection("\(field): \(text.count) characters exceeds the limit of \(limit)")
        }
        guard !text.unicodeScalars.contains(where: \.isControlCharacter) else {
            throw CommandRejection("\(field): control characters (newlines, NUL…) cannot be sent")
        }
    }

    /// A peer-supplied string made safe for a log line or an error message (Support's `printable`).
    static func printable(_ text: String) -> String { Support.printable(text) }
}
