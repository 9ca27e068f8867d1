import Net
import Wire

/// The URIs that act. Each checks its arguments (a wrong type is `400 bad request`, a value the
/// TV does not have is `500 Application error` with `errorText`), then changes the state; the
/// pushes follow from the change (`publish`).
extension LGSimulator {
    typealias Outcome = Result<[String: JSONValue], Failure>

    /// nil when `path` is no command this TV knows.
    func command(_ path: String, _ payload: [String: JSONValue], _ connection: Connection, _ core: inout Core)
        -> Outcome?
    {
        if let power = powerCommand(path, payload, &core) { return power }
        if path == "com.webos.service.networkinput/getPointerInputSocket" {
            return .success(["socketPath": .string(newPointerPath(secure: connection.secure, &core))])
        }
        guard let act = action(path) else { return nil }
        guard core.state.power.isOn else { return .failure(.refused("TV is in standby")) }
        do {
            let answer = try act(self, payload, &core)
            // Anything done on screen lights a screen that was off (or saving).
            if core.state.power != .active, path.hasPrefix("system.launcher") || path.hasPrefix("tv/") {
                setPower(.active, &core)
            }
            return .success(answer)
        } catch {
            return .failure(error)
        }
    }

    typealias Action = (LGSimulator, [String: JSONValue], inout Core) throws(Failure) -> [String: JSONValue]

    private func action(_ path: String) -> Action? {
        switch path {
        case "system.launcher/launch", "com.webos.applicationManager/launch":
            { sim, payload, core throws(Failure) in try sim.launch(payload, &core) }
        case "system.launcher/close":
            { sim, payload, core throws(Failure) in
                let id = try Self.string("id", payload)
                if core.state.appID == id { core.state.appID = LGCatalog.homeApp }
                return ["id": .string(id)]
            }
        case "tv/switchInput":
            { sim, payload, core throws(Failure) in
                let id = try Self.string("inputId", payload)
                guard let input = LGCatalog.input(id) else { throw .refused("unknown input '\(id)'") }
                core.state.appID = input.appID
                return [:]
            }
        case "tv/openChannel": { sim, payload, core throws(Failure) in try sim.openChannel(payload, &core) }
        case "tv/channelUp": { _, _, core in Self.step(1, &core) }
        case "tv/channelDown": { _, _, core in Self.step(-1, &core) }
        case "media.controls/play", "media.controls/pause", "media.controls/stop", "media.controls/rewind",
            "media.controls/fastForward":
            { _, _, core in
                core.state.mediaState = String(path.dropFirst("media.controls/".count))
                return [:]
            }
        default: audioOrText(path)
        }
    }

    private func launch(_ payload: [String: JSONValue], _ core: inout Core) throws(Failure) -> [String: JSONValue] {
        let id = try Self.string("id", payload)
        guard LGCatalog.app(id) != nil else { throw .refused("unknown app id '\(id)'") }
        core.state.appID = id
        return ["id": .string(id), "sessionId": .string(Digest.hex(SecureRandom.bytes(8)))]
    }

    private func openChannel(_ payload: [String: JSONValue], _ core: inout Core) throws(Failure)
        -> [String: JSONValue]
    {
        var key = try Self.optionalString("channelId", payload)
        if key == nil { key = try Self.string("channelNumber", payload) }
        guard let key else { throw .badRequest }
        guard let channel = LGCatalog.channel(key) else { throw .refused("unknown channel '\(key)'") }
        core.state.channelID = channel.id
        core.state.appID = LGCatalog.liveTV
        return [:]
    }

    /// The next (or previous) channel in the list, wrapping; Live TV comes to the front.
    static func step(_ offset: Int, _ core: inout Core) -> [String: JSONValue] {
        let channels = LGCatalog.channels
        let index = channels.firstIndex { $0.id == core.state.channelID } ?? 0
        core.state.channelID = channels[(index + offset + channels.count) % channels.count].id
        core.state.appID = LGCatalog.liveTV
        return [:]
    }

    /// A new pointer socket path, valid until the TV stops.
    private func newPointerPath(secure: Bool, _ core: inout Core) -> String {
        let path = "/resources/\(Digest.hex(SecureRandom.bytes(16)))\(Self.pointerSuffix)"
        core.pointerPaths.insert(path)
        // A host posing as a TV may name another machine here (`LGFault.pointerHost`).
        var host = common.urlHost
        if case .pointerHost(let other)? = core.fault { host = other }
        let base = secure ? "wss://\(host):\(portWSS ?? portWS)" : "ws://\(host):\(portWS)"
        return base + path
    }

    static let pointerSuffix = "/netinput.pointer.sock"

    static func string(_ name: String, _ payload: [String: JSONValue]) throws(Failure) -> String {
        guard let text = try optionalString(name, payload) else { throw .refused("'\(name)' is required") }
        return text
    }

    static func optionalString(_ name: String, _ payload: [String: JSONValue]) throws(Failure) -> String? {
        guard let value = payload[name] else { return nil }
        guard let text = value.stringValue else { throw .badRequest }
        return text
    }

    static func int(_ name: String, _ payload: [String: JSONValue]) throws(Failure) -> Int {
        guard let value = payload[name] else { throw .refused("'\(name)' is required") }
        guard let number = value.intValue else { throw .badRequest }
        return number
    }
}
