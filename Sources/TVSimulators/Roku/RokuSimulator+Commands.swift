import Wire

/// ECP commands: keypress/keydown/keyup and launch, their effects, and their log lines.
extension RokuSimulator {
    /// - Parameters:
    ///   - name: the decoded key (`Home`, `Lit_€`).
    ///   - raw: the key as sent (`Lit_%E2%82%AC`), logged as `key`.
    ///   - kind: `keypress`, `keydown` or `keyup`.
    ///   - viaECP2: sent over an ECP-2 session, which "Control by mobile apps" does not restrict.
    func key(_ name: String, raw: String, kind command: String, viaECP2: Bool = false) -> HTTPResponse {
        let literal: String? = name.lowercased().hasPrefix("lit_") ? String(name.dropFirst(4)) : nil
        let canonical = literal == nil ? RokuCatalog.canonicalKey(name) : nil
        let logKind = literal != nil && command == "keypress" ? "text" : command
        var fields: [String: JSONValue] = ["key": .string(literal != nil ? raw : (canonical ?? name))]
        if let literal, command == "keypress" { fields["text"] = .string(literal) }
        if viaECP2 { fields["via"] = "ecp-2" }
        return core.withLock { core in
            defer { announceLocked(&core) }
            // Logged under the same lock as the effect, so the log order is the handling order.
            if core.state.limited && !viaECP2 {
                fields["refused"] = "limited mode"
                record(logKind, fields)
                return SimResponse.plain(403, Self.limitedBody)
            }
            if let setting = core.state.ecpSetting, setting.refusesHTTPKeys && !viaECP2 {
                fields["refused"] = .string("ecp-setting-mode \(setting.rawValue)")
                record(logKind, fields)
                return SimResponse.plain(403, RokuECPSetting.forbiddenBody)
            }
            if literal?.isEmpty ?? (canonical == nil) {
                fields["refused"] = "unknown key"
                record(logKind, fields)
                return SimResponse.plain(400, "Unknown key: \(name)")
            }
            record(logKind, fields)
            guard command != "keyup" else { return HTTPResponse(status: 200) }
            core.settle()
            if let literal {
                if command == "keypress" && core.state.power == .on { core.state.text += literal }
            } else if let canonical {
                applyKey(canonical, to: &core)
            }
            core.restartClock()
            return HTTPResponse(status: 200)
        }
    }

    /// What a key does to the state. In standby only the power keys do anything; a stick
    /// passes power, volume and input keys to the TV over HDMI-CEC, so nothing changes here.
    private func applyKey(_ key: String, to core: inout Core) {
        let isTV = kind == .tv
        if core.state.power != .on {
            if isTV && (key == "PowerOn" || key == "Power") { powerOn(&core) }
            return
        }
        core.state.screensaver = false  // any key ends the screensaver
        switch key {
        case "Home":
            goHome(&core)
        case "Back":
            if core.state.appID != RokuCatalog.homeID { goHome(&core) }
        case "Play":
            switch core.state.mediaState {
            case .play: core.state.mediaState = .pause
            case .pause, .buffer: core.state.mediaState = .play
            case .close: break
            }
        case "Rev", "Fwd", "InstantReplay":
            guard core.state.mediaState != .close else { return }
            let step = key == "Fwd" ? 10_000 : (key == "Rev" ? -10_000 : -7_000)
            var position = max(0, core.state.positionMS + step)
            if core.state.durationMS > 0 { position = min(position, core.state.durationMS) }
            core.state.positionMS = position
        case "Backspace":
            if !core.state.text.isEmpty { core.state.text.removeLast() }
        case "VolumeUp" where isTV:
            core.state.volume = min(100, core.state.volume + 1)
            core.state.muted = false
        case "VolumeDown" where isTV:
            core.state.volume = max(0, core.state.volume - 1)
            core.state.muted = false
        case "VolumeMute" where isTV:
            core.state.muted.toggle()
        case "PowerOff" where isTV, "Power" where isTV:
            goStandby(&core)
        case "InputTuner" where isTV: switchApp("tvinput.dtv", &core)
        case "InputHDMI1" where isTV: switchApp("tvinput.hdmi1", &core)
        case "InputHDMI2" where isTV: switchApp("tvinput.hdmi2", &core)
        case "InputHDMI3" where isTV: switchApp("tvinput.hdmi3", &core)
        case "InputAV1" where isTV: switchApp("tvinput.cvbs", &core)
        default:
            break  // accepted without a visible effect (Select, arrows, Info, ChannelUp, InputHDMI4…)
        }
    }

    func goHome(_ core: inout Core) {
        core.state.appID = RokuCatalog.homeID
        core.state.mediaState = .close
        core.state.positionMS = 0
        core.state.durationMS = 0
        core.state.live = false
    }

    func goStandby(_ core: inout Core) {
        core.state.power = .standby
        core.state.screensaver = false
        goHome(&core)
    }

    func powerOn(_ core: inout Core) {
        core.state.power = .on
        goHome(&core)
    }

    /// Brings an app to the foreground: a channel starts playing from the beginning, an input
    /// or the home screen has no media.
    func switchApp(_ id: String, _ core: inout Core) {
        guard let app = RokuCatalog.app(id, kind: kind) else { return }
        core.state.appID = app.id
        core.state.screensaver = false
        core.state.positionMS = 0
        core.state.durationMS = app.durationMS ?? 0
        core.state.live = false
        core.state.mediaState = app.type == "appl" ? .play : .close
    }

    /// `POST /launch/<appId>?contentId=…&mediaType=…`. Works in Limited mode; a TV in standby
    /// turns on to launch (as a Roku TV with fast start does).
    func launch(_ appID: String, parameters: [(name: String, value: String)], viaECP2: Bool = false)
        -> HTTPResponse
    {
        if appID == RokuTuner.appID, let channel = parameters.first(where: { $0.name == "ch" }) {
            return tune(channel.value, viaECP2: viaECP2)
        }
        var fields: [String: JSONValue] = ["app": .string(appID)]
        for (name, value) in parameters { fields[name] = .string(value) }
        if viaECP2 { fields["via"] = "ecp-2" }
        return core.withLock { core in
            defer { announceLocked(&core) }
            guard RokuCatalog.app(appID, kind: kind) != nil else {
                fields["refused"] = "unknown app"
                record("launch", fields)
                return SimResponse.plain(404, "")
            }
            record("launch", fields)
            if core.state.power != .on { core.state.power = .on }
            switchApp(appID, &core)
            core.restartClock()
            return HTTPResponse(status: 200)
        }
    }
}
