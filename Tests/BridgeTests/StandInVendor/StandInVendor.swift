import Drivers
import Synchronization
import TVModel

/// A fourth vendor, written as a vendor's folder in Drivers would be and defined only here:
/// its kind, its `Vendor` descriptor, its configuration section (`StandInSettings`) and its
/// driver. Registered through the one list the bridge is given (`[Vendor].withStandIn`),
/// nothing else in the project knows it.
extension TVKind {
    static let standIn = TVKind(rawValue: "acme")
}

extension Vendor {
    static let standIn = Vendor(
        kind: .standIn, manufacturer: "Acme", defaultPort: 7000, ssdpTargets: [StandInTV.searchTarget],
        ssdpLocationIsControlPort: true, probedWhenKindUnknown: false,
        placeholderCapabilities: StandInDriver.capabilities, wakeHint: StandInDriver.wakeHint,
        configuration: StandInSettings.configuration, diagnosticSensors: [StandInDriver.remoteSetting],
        controls: StandInDriver.controls, findRemoteKey: StandInDriver.findRemoteKey,
        drivers: { _, sections in
            let section = sections[StandInSettings.self]
            return VendorDrivers(
                describe: { host, port throws(DriverError) in
                    try await StandInDriver.describe(host: host, port: port)
                },
                makeDriver: { description, _, options in
                    let own = options.vendorKeys[StandInTVOptions.self].toastPrefix
                    return StandInDriver(description: description, toastPrefix: own ?? section.toastPrefix)
                })
        })
}

/// The stand-in vendor's driver: power, the shared keys and its own `BEEP` (`KEY <NAME>`
/// lines), the screen, the sound output, toasts (after its configured prefix), and its own
/// picture mode select and eco switch. It declares a find-my-remote key, a diagnostic sensor,
/// screen control, its sound outputs, toasts and its two controls through the generic
/// capabilities, as any vendor would.
final class StandInDriver: TVDriver {
    static let findRemoteKey = "BEEP"
    static let wakeHint = "Acme: Wake on network"
    static let remoteSetting = DiagnosticSensor(key: "remote_setting", name: "Remote setting", icon: "mdi:cog")
    static let soundOutputs = ["tv_speaker", "hdmi_arc"]
    static let pictureMode = DeclaredControl(
        key: "picture_mode", platform: .select, name: "Picture mode", icon: "mdi:image", options: ["standard", "movie"])
    static let eco = DeclaredControl(key: "eco", platform: .switch, name: "Eco", icon: "mdi:leaf")
    static let controls = [pictureMode, eco]
    static let capabilities: TVCapabilities = {
        var capabilities = TVCapabilities(power: true, volumeKeys: true, keyboard: false, mediaState: false)
        capabilities.findRemoteKey = findRemoteKey
        capabilities.diagnosticSensors = [remoteSetting]
        capabilities.screenControl = true
        capabilities.soundOutputs = soundOutputs
        capabilities.toast = true
        capabilities.controls = controls
        return capabilities
    }()

    let kind = TVKind.standIn
    let events = DriverEvents()
    /// What every toast starts with (`acme.toast_prefix`, or the TV's `acme_toast_prefix`).
    let toastPrefix: String
    private let state: Mutex<TVDescription>

    init(description: TVDescription, toastPrefix: String) {
        state = Mutex(description)
        self.toastPrefix = toastPrefix
    }

    /// Who the device at `host` is, if it is an Acme TV (`WHO` → `acme <serial>`).
    static func describe(host: String, port: UInt16?) async throws(DriverError) -> TVDescription {
        let port = port ?? 7000
        let reply: String
        do {
            reply = try await StandInLine.ask("WHO", host: host, port: port)
        } catch {
            throw DriverError(.unreachable, "no Acme TV at \(host):\(port): \(error)")
        }
        let words = reply.split(separator: " ")
        guard words.count == 2, words[0] == "acme", let id = TVID(kind: .standIn, hardwareID: String(words[1]))
        else { throw DriverError(.badResponse, "not an Acme TV at \(host):\(port)") }
        let identity = TVIdentity(
            id: id, kind: .standIn, name: "Acme \(words[1])", manufacturer: "Acme", model: "Stand-in",
            serialNumber: String(words[1]), host: host, port: port)
        return TVDescription(identity: identity, capabilities: capabilities)
    }

    var description: TVDescription { state.withLock { $0 } }

    func poll(full: Bool) async -> TVSnapshot {
        let identity = state.withLock { $0.identity }
        let setting = try? await StandInLine.ask("SETTING", host: identity.host, port: identity.port)
        let power = try? await StandInLine.ask("POWER", host: identity.host, port: identity.port)
        var snapshot = TVSnapshot(reachable: setting != nil, power: setting != nil ? power != "OFF" : nil)
        snapshot.declared[Self.remoteSetting.key] = setting
        let shown = try? await StandInLine.ask("STATE", host: identity.host, port: identity.port)
        if let words = shown?.split(separator: " "), words.count == 4 {
            snapshot.screenOn = words[0] == "ON"
            snapshot.soundOutput = String(words[1])
            snapshot.declared[Self.pictureMode.key] = String(words[2])
            snapshot.declared[Self.eco.key] = String(words[3])
        }
        return snapshot
    }

    /// The lines to send, one `OK` each.
    func plan(_ checked: CheckedCommand) throws(CommandRejection) -> TVPlan {
        let command = checked.command
        let lines: [String]
        switch command {
        case .power(let action):
            lines = ["POWER " + action.rawValue]
        case .key(.shared(let key), let count):
            lines = [String](repeating: "KEY " + key.rawValue.uppercased(), count: count)
        case .key(.vendor(Self.findRemoteKey), let count):
            lines = [String](repeating: "KEY " + Self.findRemoteKey, count: count)
        case .screen(let on):
            lines = ["SCREEN " + (on ? "ON" : "OFF")]
        case .soundOutput(let output):
            guard Self.soundOutputs.contains(output) else {
                throw CommandRejection("sound_output: '\(output)' is not one of \(Self.soundOutputs)")
            }
            lines = ["SOUND " + output]
        case .toast(let message):
            lines = ["TOAST " + (toastPrefix + message).replacing("\n", with: "\\n")]
        case .control(Self.pictureMode.key, let mode):
            lines = ["PICTURE " + mode]
        case .control(Self.eco.key, let on):
            lines = ["ECO " + on]
        default:
            throw CommandRejection(
                "an Acme TV takes power, the shared keys, BEEP, screen, sound_output, toast, picture_mode and eco only")
        }
        return TVPlan(command, steps: lines)
    }

    func execute(_ plan: TVPlan) async throws(DriverError) {
        let lines = try plan.steps(as: [String].self)
        let identity = state.withLock { $0.identity }
        for line in lines {
            let reply: String
            do {
                reply = try await StandInLine.ask(line, host: identity.host, port: identity.port)
            } catch {
                throw DriverError(.unreachable, "Acme TV \(identity.host): \(error)")
            }
            guard reply == "OK" else { throw DriverError(.rejected, "Acme TV refused \(line)") }
        }
    }

    func updateHost(_ host: String) async { state.withLock { $0.identity.host = host } }

    func shutdown() async { events.finish() }
}
