import Wire

/// `POST /sim/state` and `apply(_:)`: the test's back door, changing the state as if someone
/// had used the TV's own remote. The whole change is validated before any of it is applied.
extension RokuSimulator {
    /// What must happen to the sockets after a state change, outside the request that made it.
    enum PowerEffect: Sendable {
        case none
        /// The TV went `off`: close the ECP listener (connections are refused until woken).
        case closeListener
        /// The TV came back from `off`: listen again and announce itself.
        case openListener
    }

    static let simStateFields: Set<String> = [
        "power", "app", "media_state", "position_ms", "duration_ms", "volume", "muted", "screensaver",
        "limited", "ecp_setting_mode", "silent", "software_version",
        "text", "channel", "live",
    ]

    func applyLocked(_ change: JSONValue, to core: inout Core) throws(SimulatorError) -> PowerEffect {
        guard let fields = change.objectValue else {
            throw SimulatorError("expected a JSON object, got \(change.typeName)")
        }
        if let unknown = fields.keys.sorted().first(where: { !Self.simStateFields.contains($0) }) {
            throw SimulatorError("unknown field '\(unknown)'")
        }
        func string(_ name: String) throws(SimulatorError) -> String? {
            guard let value = fields[name] else { return nil }
            guard let text = value.stringValue else { throw SimulatorError("'\(name)' must be a string") }
            return text
        }
        func bool(_ name: String) throws(SimulatorError) -> Bool? {
            guard let value = fields[name] else { return nil }
            guard let flag = value.boolValue else {
                throw SimulatorError("'\(name)' must be true or false")
            }
            return flag
        }
        func int(_ name: String, _ range: ClosedRange<Int>) throws(SimulatorError) -> Int? {
            guard let value = fields[name] else { return nil }
            guard case .integer(let number) = value, range.contains(Int(clamping: number)) else {
                throw SimulatorError(
                    "'\(name)' must be an integer in \(range.lowerBound)...\(range.upperBound)")
            }
            return Int(number)
        }
        // Validate everything first.
        let power = try string("power").map {
            (text: String) throws(SimulatorError) -> RokuSimState.Power in
            guard let power = RokuSimState.Power(rawValue: text) else {
                throw SimulatorError("'power' must be on, standby or off, not '\(text)'")
            }
            return power
        }
        let app = try string("app")
        if let app, RokuCatalog.app(app, kind: kind) == nil {
            throw SimulatorError("'app': unknown app id '\(app)'")
        }
        let media = try string("media_state").map {
            (text: String) throws(SimulatorError) -> RokuSimState.MediaState in
            guard let media = RokuSimState.MediaState(rawValue: text) else {
                throw SimulatorError("'media_state' must be play, pause, buffer or close, not '\(text)'")
            }
            return media
        }
        let position = try int("position_ms", 0...Int(Int32.max))
        let duration = try int("duration_ms", 0...Int(Int32.max))
        let volume = try int("volume", 0...100)
        let muted = try bool("muted")
        let screensaver = try bool("screensaver")
        let limited = try bool("limited")
        let setting = try string("ecp_setting_mode").map {
            (text: String) throws(SimulatorError) -> RokuECPSetting in
            guard let setting = RokuECPSetting(rawValue: text) else {
                throw SimulatorError(
                    "'ecp_setting_mode' must be limited, enabled, default or permissive, not '\(text)'")
            }
            return setting
        }
        let silent = try bool("silent")
        let softwareVersion = try string("software_version")
        if let softwareVersion, softwareVersion.isEmpty || softwareVersion.contains(where: { $0 == "<" || $0 == "&" }) {
            throw SimulatorError("'software_version' must be a version such as 15.2.4")
        }
        let text = try string("text")
        let tuner = try TunerChange(fields, kind: kind)

        // Then apply, in an order where later fields refine earlier ones.
        core.settle()
        let before = core.state.power
        if let power {
            switch power {
            case .on: if before != .on { powerOn(&core) }
            case .standby, .off: if before == .on { goStandby(&core) }
            }
            core.state.power = power
        }
        if let app { switchApp(app, &core) }
        if let media { core.state.mediaState = media }
        if let duration { core.state.durationMS = duration }
        if let position { core.state.positionMS = position }
        if let volume { core.state.volume = volume }
        if let muted { core.state.muted = muted }
        if let screensaver { core.state.screensaver = screensaver }
        if let limited { core.state.limited = limited }
        if let setting { core.state.ecpSetting = setting }
        if let silent { core.state.silent = silent }
        if let softwareVersion { core.state.softwareVersion = softwareVersion }
        if let text { core.state.text = text }
        tuner.apply(to: &core.state)
        core.restartClock()
        announceLocked(&core)
        switch (before == .off, core.state.power == .off) {
        case (false, true): return .closeListener
        case (true, false): return .openListener
        default: return .none
        }
    }
}
