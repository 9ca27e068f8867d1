import Net
import Wire

/// The power states: turnOff passes through a "processing" state to Active Standby (or
/// Suspend, `--standby suspend`, which then closes the network); screen off/on; Wake-on-LAN.
/// As lgtv2 issue 15 reports of real sets, turnOff sent in Active Standby turns the TV on.
extension LGSimulator {
    func powerCommand(_ path: String, _ payload: [String: JSONValue], _ core: inout Core) -> Outcome? {
        switch path {
        case "system/turnOff":
            turnOff(&core)
            return .success([:])
        case "system/turnOn":
            if core.state.power == .activeStandby { setPower(.active, &core) }
            return .success([:])
        case "com.webos.service.tvpower/power/turnOffScreen", "com.webos.service.tv.power/turnOffScreen":
            guard core.state.power.isOn else { return .failure(.refused("TV is in standby")) }
            if core.state.power != .screenOff { setPower(.screenOff, &core) }
            return .success([:])
        case "com.webos.service.tvpower/power/turnOnScreen", "com.webos.service.tv.power/turnOnScreen":
            guard core.state.power.isOn else { return .failure(.refused("TV is in standby")) }
            if core.state.power == .screenOff { setPower(.active, &core) }
            return .success([:])
        default:
            return nil
        }
    }

    /// From a state that shows something: the processing push, then (after
    /// `options.powerTransition`) the standby state; in Active Standby it is a toggle.
    func turnOff(_ core: inout Core) {
        guard core.state.power.isOn else {
            if core.state.power == .activeStandby { setPower(.active, &core) }
            return
        }
        guard core.state.processing == nil else { return }
        let target: LGSimState.Power = options.standby == .suspend ? .suspend : .activeStandby
        core.state.processing = target == .suspend ? "Request Suspend" : "Request Active Standby"
        let delay = options.powerTransition
        common.spawn { [self] in
            try? await EventLoop.sleep(for: delay, clock: .system)
            let done = self.core.withLock { core -> Bool in
                // Woken (or changed by /sim/state) meanwhile: nothing left to do.
                guard core.state.processing != nil, core.state.power.isOn else { return false }
                setPower(target, &core)
                publish(&core)
                return true
            }
            guard done, target == .suspend else { return }
            // Let the Suspend push leave before the network goes down.
            try? await EventLoop.sleep(for: .milliseconds(100), clock: .system)
            syncListeners()
        }
    }

    /// Every change of `power_mode`, whatever caused it, logged as kind `power`.
    func setPower(_ power: LGSimState.Power, _ core: inout Core) {
        core.state.processing = nil
        guard core.state.power != power else { return }
        record("power", ["from": .string(core.state.power.rawValue), "to": .string(power.rawValue)])
        core.state.power = power
    }

    /// A magic packet for one of our MACs: Active Standby or Suspend → Active.
    func wake() {
        let changed = core.withLock { core -> Bool in
            guard !core.state.power.isOn, !common.isStopped else { return false }
            setPower(.active, &core)
            publish(&core)
            return true
        }
        if changed { syncListeners() }
    }
}
