import Clients
import Net
import TVModel
import Wire

extension SamsungDriver {
    /// Idempotent power (README › MQTT topics and commands, `power`): the REST reading is taken
    /// now, `SamsungPowerPlanner` decides, and KEY_POWER goes out only when the state it toggles
    /// from is confirmed.
    func power(_ action: PowerAction) async throws(DriverError) {
        var info: SamsungDeviceInfo?
        do {
            info = try await http.deviceInfo()
        } catch  where error.kind == .unreachable || error.kind == .timeout {
            info = nil
        }
        // A Frame showing art while REST says standby (2025 firmware) is on, for power's sake.
        var powerState = info?.powerState
        if let info, powerState == .standby, await readsOn(info) { powerState = .on }
        let now = LoopClock.current.now
        let context = state.withLock { state in
            state.info = info
            state.reachable = info != nil
            return SamsungPowerContext(
                powerState: powerState, reachable: info != nil, frameTV: info?.frameTV ?? false,
                recentlyPoweredOff: state.grace.isActive(now: now))
        }
        let plan = SamsungPowerPlanner.plan(action, context: context)
        logger.debug("power \(action.rawValue): \(plan.reason)")
        for step in plan.steps {
            switch step {
            case .wakeOnLAN:
                await wake()
            case .clickPower where plan.steps.contains(.wakeOnLAN):
                // Power-on from standby: a TV that the magic packet already woke would be
                // toggled straight back off, so KEY_POWER goes only if it still says standby.
                guard await stillInStandby() else {
                    logger.debug("power ON: Wake-on-LAN woke the TV; KEY_POWER not sent")
                    continue
                }
                try await channel.send(SamsungPowerPlanner.remoteSteps(for: step) ?? [])
            case .clickPower, .holdPower:
                try await channel.send(SamsungPowerPlanner.remoteSteps(for: step) ?? [])
            case .startGraceWindow:
                state.withLock { $0.grace.start(now: LoopClock.current.now) }
            case .endGraceWindow:
                state.withLock { $0.grace.end() }
            }
        }
    }

    /// Reads `PowerState` every 250 ms for `options.wakeSettle`: false as soon as the TV
    /// says anything but `standby` (woken, or gone), true when it stayed in standby.
    private func stillInStandby() async -> Bool {
        let deadline = LoopClock.current.now + options.wakeSettle
        repeat {
            do {
                try await EventLoop.sleep(for: .milliseconds(250))  // paced: asks the TV (silent on waking)
            } catch {
                return false
            }
            guard let info = try? await http.deviceInfo(), info.powerState == .standby else {
                return false
            }
        } while LoopClock.current.now < deadline
        return true
    }

    /// Wake-on-LAN to every known MAC at every configured target (`DriverWake`).
    func wake() async {
        await DriverWake.send(
            to: state.withLock { $0.description.identity.macs }, settings: settings, logger: logger)
    }
}
