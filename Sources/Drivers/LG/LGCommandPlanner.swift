import Support
import TVModel
import Wire

/// What `LGDriver.execute` does for one command.
enum LGAction: Equatable, Sendable {
    /// Buttons through the pointer input socket, in order.
    case buttons([String])
    case power(PowerAction)
    /// One SSAP request.
    case request(String, JSONValue?)
    /// Text typed into the on-screen keyboard (`insertText`).
    case text(String)
}

/// An input as `getExternalInputList` lists it: its id (`HDMI_1`), label, and the app that
/// shows it (`com.webos.app.hdmi1`), by which the foreground app names the input.
struct LGInput: Equatable, Sendable {
    var id: String
    var label: String
    var appID: String?
}

/// A tuner channel as `getChannelList` lists it.
struct LGChannel: Equatable, Sendable {
    var id: String
    var number: String
    var name: String

    /// "7-1 KQED": the `channel` select's option.
    var label: String { name.isEmpty ? number : "\(number) \(name)" }
}

/// Checks a command against what the TV has (apps, inputs, channels) and resolves it. Pure.
struct LGCommandPlanner {
    var apps: [TVApp]
    var inputs: [LGInput]
    var channels: [LGChannel]
    var soundOutputs: [String] = LGSoundOutputs.known

    func plan(_ command: TVCommand) throws(CommandRejection) -> [LGAction] {
        switch command {
        case .key(let key, let count):
            switch try LGKeys.code(for: key) {
            case .button(let name): return [.buttons(Array(repeating: name, count: count))]
            case .power(let action): return [.power(action)]
            case .input(let id): return [.request(LGURI.switchInput, ["inputId": .string(id)])]
            case .deleteCharacter: return [.request(LGURI.deleteCharacters, ["count": .integer(Int64(count))])]
            case .keyboardEnter: return Array(repeating: .request(LGURI.sendEnterKey, nil), count: count)
            }
        case .power(let action): return [.power(action)]
        case .app(let nameOrID): return [.request(LGURI.launch, ["id": .string(try appID(nameOrID))])]
        case .launch(let appID, let contentID, let mediaType):
            var params: [String: JSONValue] = [:]
            if let contentID { params["contentId"] = .string(contentID) }
            if let mediaType { params["mediaType"] = .string(mediaType) }
            var payload: [String: JSONValue] = ["id": .string(appID)]
            if !params.isEmpty { payload["params"] = .object(params) }
            return [.request(LGURI.launch, .object(payload))]
        case .text(let text): return [.text(text)]
        case .input(let name):
            let wanted = name.lowercased()
            guard let input = inputs.first(where: { $0.label.lowercased() == wanted || $0.id.lowercased() == wanted })
            else {
                let known = inputs.map(\.label).joined(separator: ", ")
                throw CommandRejection(
                    "unknown input '\(printable(name))'\(known.isEmpty ? "" : " (inputs: \(known))")")
            }
            return [.request(LGURI.switchInput, ["inputId": .string(input.id)])]
        case .volume(let level): return [.request(LGURI.setVolume, ["volume": .integer(Int64(level))])]
        case .mute(let muted): return [.request(LGURI.setMute, ["mute": .bool(muted)])]
        case .channel(let wanted): return [.request(LGURI.openChannel, channelPayload(wanted))]
        case .holdKey:
            throw CommandRejection(
                "held keys are not possible on LG TVs: the pointer socket has no key-down/key-up; repeat the key instead"
            )
        case .search: throw CommandRejection("search is not supported on LG TVs")
        case .control: throw .notSupported(command)
        case .screen(let on): return [.request(on ? LGURI.turnOnScreen : LGURI.turnOffScreen, nil)]
        case .soundOutput(let output):
            guard soundOutputs.contains(output) else {
                throw CommandRejection(
                    "unknown sound output '\(printable(output))' (outputs: \(soundOutputs.joined(separator: ", ")))")
            }
            return [.request(LGURI.changeSoundOutput, ["output": .string(output)])]
        case .toast(let message): return [.request(LGURI.toast, ["message": .string(message)])]
        }
    }

    /// An app by name (case-insensitive) or id; an id the list lacks goes out as it is when it
    /// looks like one (`com.webos.app.browser`), as apps the launcher hides still launch.
    func appID(_ nameOrID: String) throws(CommandRejection) -> String {
        let wanted = nameOrID.lowercased()
        if let app = apps.first(where: { $0.id == nameOrID || $0.name.lowercased() == wanted }) { return app.id }
        if nameOrID.contains("."), !nameOrID.contains(" ") { return nameOrID }
        throw CommandRejection("unknown app '\(printable(nameOrID))'")
    }

    /// By the select's label, number or name; a number the list lacks is asked as a number.
    func channelPayload(_ wanted: String) -> JSONValue {
        let lower = wanted.lowercased()
        if let channel = channels.first(where: {
            $0.label.lowercased() == lower || $0.number == wanted || $0.name.lowercased() == lower
        }) {
            return ["channelId": .string(channel.id)]
        }
        return ["channelNumber": .string(wanted)]
    }
}

/// webOS has no call that lists the sound outputs: these are the ids `changeSoundOutput`
/// takes on the sets aiowebostv and bscpylgtv document, and the one in use is added.
enum LGSoundOutputs {
    static let known = [
        "tv_speaker", "external_arc", "external_optical", "bt_soundbar", "headphone", "tv_external_speaker",
    ]
}

/// The SSAP URIs the driver uses.
enum LGURI {
    static let turnOff = "ssap://system/turnOff"
    static let powerState = "ssap://com.webos.service.tvpower/power/getPowerState"
    static let turnOnScreen = "ssap://com.webos.service.tvpower/power/turnOnScreen"
    static let turnOffScreen = "ssap://com.webos.service.tvpower/power/turnOffScreen"
    static let foregroundApp = "ssap://com.webos.applicationManager/getForegroundAppInfo"
    static let launchPoints = "ssap://com.webos.applicationManager/listLaunchPoints"
    static let launch = "ssap://system.launcher/launch"
    static let inputs = "ssap://tv/getExternalInputList"
    static let switchInput = "ssap://tv/switchInput"
    static let currentChannel = "ssap://tv/getCurrentChannel"
    static let channelList = "ssap://tv/getChannelList"
    static let openChannel = "ssap://tv/openChannel"
    static let volume = "ssap://audio/getVolume"
    static let setVolume = "ssap://audio/setVolume"
    static let setMute = "ssap://audio/setMute"
    static let soundOutput = "ssap://com.webos.service.apiadapter/audio/getSoundOutput"
    static let changeSoundOutput = "ssap://com.webos.service.apiadapter/audio/changeSoundOutput"
    static let insertText = "ssap://com.webos.service.ime/insertText"
    static let deleteCharacters = "ssap://com.webos.service.ime/deleteCharacters"
    static let sendEnterKey = "ssap://com.webos.service.ime/sendEnterKey"
    static let toast = "ssap://system.notifications/createToast"
    static let connectionInfo = "ssap://com.webos.service.connectionmanager/getinfo"
    static let systemInfo = "ssap://system/getSystemInfo"
    static let softwareInfo = "ssap://com.webos.service.update/getCurrentSWInformation"
}
