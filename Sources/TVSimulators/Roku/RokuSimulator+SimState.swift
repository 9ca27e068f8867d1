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
        let change = try SimStateChange(change, known: Self.simStateFields)
        // Validate everything first.
        let power: RokuSimState.Power? = try change.choice("power", "on, standby or off")
        let app = try change.string("app")
        if let app, RokuCatalog.app(app, kind: kind) == nil {
            throw SimulatorError("'app': unknown app id '\(app)'")
        }
        let media: RokuSimState.MediaState? = try change.choice("media_state", "play, pause, buffer or close")
        let position = try change.int("position_ms", 0...Int(Int32.max))
        let duration = try change.int("duration_ms", 0...Int(Int32.max))
        let volume = try change.int("volume", 0...100)
        let muted = try change.bool("muted")
        let screensaver = try change.bool("screensaver")
        let limited = try change.bool("limited")
        let setting: RokuECPSetting? = try change.choice(
            "ecp_setting_mode", "limited, enabled, default or permissive")
        let silent = try change.bool("silent")
        let softwareVersion = try change.string("software_version")
        if let softwareVersion, softwareVersion.isEmpty || softwareVersion.contains(where: { $0 == "<" || $0 == "&" }) {
            throw SimulatorError("'software_version' must be a version such as 15.2.4")
        }
        let text = try change.string("text")
        let tuner = try TunerChange(change.fields, kind: kind)

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
