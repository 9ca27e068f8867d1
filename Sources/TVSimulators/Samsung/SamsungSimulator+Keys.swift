import Support
import Wire

/// Remote keys and what they do to the state. Every key is logged (unknown and blocked keys
/// too: a real TV silently ignores them, and a test wants to see that they were sent).
extension SamsungSimulator {
    func remoteKey(_ key: String, command: String, client: inout RemoteClient) {
        let now = ContinuousClock.now
        var held: Duration?
        switch command {
        case "Press":
            // Bounded: a client pressing endless distinct keys never releasing them.
            if client.pressed.count >= 32 { client.pressed.removeAll() }
            client.pressed[key] = now
        case "Release":
            held = client.pressed.removeValue(forKey: key).map { now - $0 }
        default:
            break
        }
        let powerChanged = core.withLock { core -> Bool in
            // Logged under the same lock as the effect, so the log order is the handling order.
            var fields: [String: JSONValue] = ["key": .string(key), "cmd": .string(command)]
            if let held {
                fields["held_ms"] = .integer(held.wholeMilliseconds)
            }
            record("remote_key", fields)
            let before = core.state.power
            // A key acts on Click, or on Release after a Press (a hold); Press alone does nothing.
            if command == "Click" || (command == "Release" && held != nil) {
                applyKey(key, held: held ?? .zero, to: &core)
            }
            return core.state.power != before
        }
        if powerChanged { syncListeners() }
    }

    private func applyKey(_ key: String, held: Duration, to core: inout Core) {
        if core.state.power != .on {
            // Network standby: only the power key does anything (and turns the TV on).
            if key == "KEY_POWER" { core.state.power = .on }
            return
        }
        switch key {
        case "KEY_POWER":
            if options.frame && held < options.framePowerHold {
                core.state.artMode.toggle()  // a Frame's click swaps TV and art
            } else {
                core.state.power = .standby
                core.state.artMode = false
            }
        case "KEY_VOLUP":
            core.state.volume = min(core.state.volume + 1, 100)
            core.state.muted = false
        case "KEY_VOLDOWN":
            core.state.volume = max(core.state.volume - 1, 0)
        case "KEY_MUTE":
            core.state.muted.toggle()
        case "KEY_HOME", "KEY_EXIT":
            core.state.appID = nil
        case "KEY_RETURN":
            if core.state.appID != nil { core.state.appID = nil }
        case "KEY_TV", "KEY_DTV":
            show("TV", &core)
        case "KEY_HDMI":
            // Cycles through the HDMI inputs, as the real key does.
            let hdmi = SamsungCatalog.sources.filter { $0.hasPrefix("HDMI") }
            let next = (hdmi.firstIndex(of: core.state.source).map { $0 + 1 } ?? 0) % hdmi.count
            show(hdmi[next], &core)
        case "KEY_HDMI1", "KEY_HDMI2", "KEY_HDMI3", "KEY_HDMI4":
            show(String(key.dropFirst(4)), &core)
        default:
            break  // navigation and media keys, and keys this TV ignores (KEY_FACTORY…)
        }
    }

    private func show(_ source: String, _ core: inout Core) {
        core.state.source = source
        core.state.appID = nil
        core.state.artMode = false
    }
}
