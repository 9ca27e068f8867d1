import Clients
import Net
import TVModel
import Wire

extension RokuDriver {
    /// Power with the state checked first (see `RokuPowerDecision`).
    func power(_ action: PowerAction) async throws(DriverError) {
        if action == .on {
            // Wake first, before anything that could wait on a sleeping TV's silence.
            await wake()
        }
        let mode = try await readPowerMode()
        switch RokuPowerDecision.decide(action, powerMode: mode) {
        case .nothing:
            logger.debug("power \(action.rawValue): already \(mode ?? "unreachable"), nothing sent")
        case .turnOff:
            try await sendKeys(["PowerOff"], session: ecp2Session)
        case .turnOn(let waitForAnswer, _):
            if action != .on { await wake() }
            var current = mode
            if waitForAnswer { current = try await awaitAnswer() }
            guard let current else {
                guard !state.withLock({ $0.description.identity.macs.isEmpty }) else {
                    throw DriverError(
                        .unreachable, "the Roku does not answer and no MAC address is known to wake it with")
                }
                logger.info("Wake-on-LAN sent; the Roku has not answered yet")
                return
            }
            // Decided again on what the TV says now: a woken TV may already be on.
            if current != "PowerOn" { try await sendKeys(["PowerOn"], session: ecp2Session) }
        }
    }

    /// The current `power-mode`; nil when the TV does not answer (off, asleep, unplugged).
    /// A reachable TV without a `power-mode` gives "".
    func readPowerMode() async throws(DriverError) -> String? {
        do {
            return try RokuDeviceInfo.parse(try await ecp.query("/query/device-info")).powerMode ?? ""
        } catch  where error.kind == .unreachable || error.kind == .timeout {
            return nil
        }
    }

    /// Asks device-info every half second until the TV answers or `settings.wakeWait` passed.
    private func awaitAnswer() async throws(DriverError) -> String? {
        let deadline = LoopClock.current.now + settings.wakeWait
        while LoopClock.current.now < deadline {
            do {
                try await EventLoop.sleep(for: .milliseconds(500))  // paced: asks the TV (silent on waking)
            } catch {
                return nil
            }
            if let mode = try await readPowerMode() { return mode }
        }
        return nil
    }

    /// Wake-on-LAN to every known MAC at every configured target (`DriverWake`).
    func wake() async {
        await DriverWake.send(
            to: state.withLock { $0.description.identity.macs }, settings: settings, logger: logger)
    }
}
