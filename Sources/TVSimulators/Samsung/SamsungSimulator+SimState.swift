import Wire

/// `POST /sim/state` and `apply(_:)`: the test's back door, changing the state as if someone
/// had used the TV's own remote. The whole change is validated before any of it is applied;
/// a bad field is refused (400) with its name.
extension SamsungSimulator {
    static let simStateFields: Set<String> = [
        "power", "app", "source", "input", "volume", "muted", "text", "art_mode",
    ]

    func applyLocked(_ change: JSONValue, to core: inout Core) throws(SimulatorError) {
        let change = try SimStateChange(change, known: Self.simStateFields)
        let fields = change.fields
        let power: SamsungSimState.Power? = try change.choice("power", "on, standby or off")
        // "app": an installed app's id, or null to close the running app.
        var app: String??
        switch fields["app"] {
        case nil: app = nil
        case .null?: app = .some(nil)
        case .string(let id)?:
            guard SamsungCatalog.app(id) != nil else { throw SimulatorError("'app': unknown app id '\(id)'") }
            app = .some(id)
        default: throw SimulatorError("'app' must be an app id or null")
        }
        // "input" is another name for "source" (TVSimulators/README.md names both).
        let named = try change.string("source")
        let alias = try change.string("input")
        let source = named ?? alias
        if let source, !SamsungCatalog.sources.contains(source) {
            throw SimulatorError(
                "'source' must be one of \(SamsungCatalog.sources.joined(separator: ", ")), not '\(source)'")
        }
        let volume = try change.int("volume", 0...100)
        let muted = try change.bool("muted")
        let text = try change.string("text")
        let artMode = try artModeValue(fields["art_mode"])
        if artMode != nil && !options.frame {
            throw SimulatorError("'art_mode': this TV is not a Frame TV (start it with frame)")
        }

        if let power { core.state.power = power }
        if let source {
            core.state.source = source
            core.state.appID = nil
        }
        if let app { core.state.appID = app }
        if let volume { core.state.volume = volume }
        if let muted { core.state.muted = muted }
        if let text { core.state.text = text }
        if let artMode { core.state.artMode = artMode }
        if core.state.power != .on { core.state.artMode = false }
    }

    /// `art_mode`: "on"/"off", or true/false.
    private func artModeValue(_ value: JSONValue?) throws(SimulatorError) -> Bool? {
        switch value {
        case nil: return nil
        case .bool(let flag)?: return flag
        case .string("on")?: return true
        case .string("off")?: return false
        default: throw SimulatorError("'art_mode' must be \"on\" or \"off\" (or true/false)")
        }
    }
}
