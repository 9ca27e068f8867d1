import Wire

/// `POST /sim/state` and `apply(_:)`: the test's back door, changing the state as if someone
/// had used the TV's own remote; every change is pushed to the subscriptions. The whole change
/// is validated before any of it is applied; a bad field is refused (400) with its name.
extension LGSimulator {
    static let simStateFields: Set<String> = [
        "power_mode", "app", "volume", "muted", "input", "channel", "sound_output",
    ]

    func applyLocked(_ change: JSONValue, to core: inout Core) throws(SimulatorError) {
        let change = try SimStateChange(change, known: Self.simStateFields)
        let power: LGSimState.Power? = try change.choice(
            "power_mode", LGSimState.Power.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))
        let app = try change.string("app")
        if let app, LGCatalog.app(app) == nil { throw SimulatorError("'app': unknown app id '\(app)'") }
        let volume = try change.int("volume", 0...100)
        let muted = try change.bool("muted")
        let input = try change.string("input").map { id throws(SimulatorError) in
            guard let input = LGCatalog.input(id) else { throw SimulatorError("'input': unknown input '\(id)'") }
            return input
        }
        let channel = try change.string("channel").map { key throws(SimulatorError) in
            guard let channel = LGCatalog.channel(key) else {
                throw SimulatorError("'channel': unknown channel '\(key)'")
            }
            return channel
        }
        let output = try change.string("sound_output")
        if let output, !LGCatalog.soundOutputs.contains(output) {
            throw SimulatorError("'sound_output' must be one of \(LGCatalog.soundOutputs.joined(separator: ", "))")
        }

        if let power { setPower(power, &core) }
        if let channel {
            core.state.channelID = channel.id
            core.state.appID = LGCatalog.liveTV
        }
        if let input { core.state.appID = input.appID }
        if let app { core.state.appID = app }
        if let volume { core.state.volume = volume }
        if let muted { core.state.muted = muted }
        if let output { core.state.soundOutput = output }
        publish(&core)
    }

    var currentSimState: JSONValue {
        core.withLock { core in
            guard case .object(var fields) = core.state.json else { return core.state.json }
            fields["client_keys"] = .array(core.clientKeys.map(JSONValue.string))
            return .object(fields)
        }
    }

    var simStateEndpoint: SimStateEndpoint {
        SimStateEndpoint(
            current: { [self] in currentSimState },
            apply: { [self] change throws(SimulatorError) in
                try core.withLock { core throws(SimulatorError) in try applyLocked(change, to: &core) }
                // Answered first: Suspend closes the listener this answer leaves by.
                return { [self] in syncListeners() }
            })
    }
}
