import Drivers
import MQTTInterface
import Net
import TVModel
import Wire

/// The turn-on fallback (README › Events): `turn_on_requested` when an `ON` reaches a TV that is off,
/// and `command_failed` + `turn_on_failed` when it is still not on `wake_timeout` seconds later.
/// Both reach `<base>/<tv>/event`, where the `turn_on` device triggers listen.
extension TVAgent {
    /// Commands were queued: an `ON` for a TV that is off is a turn-on request.
    func accepted(_ commands: [TVCommand]) async {
        guard
            turnOnWatch.commandsAccepted(
                commands, powerIsOn: snapshot.power == true, now: LoopClock.current.now)
        else { return }
        if turnOnWatch.deadline != nil && !watchingTurnOn {
            watchingTurnOn = true
            Task { await self.watchTurnOn() }
        } else {
            turnOnWakeup.signal()  // the deadline moved
        }
        let waits =
            turnOnWatch.timeout.map { " (reported if it is not on within \($0.wholeSeconds) s)" } ?? ""
        await context.emit(
            BridgeEvent(
                .turnOnRequested, tv: id.rawValue,
                message:
                    "\(description.identity.name) was asked to turn on while off: Wake-on-LAN and the power-on command are on their way\(waits)"
            ), level: .info)
    }

    /// Runs while a turn-on is watched (started by `accepted`): waits for the watch's deadline,
    /// re-reading it whenever a request moves it, and ends with the watch.
    private nonisolated func watchTurnOn() async {
        while let wait = await untilTurnOnDeadline() {
            if wait > .zero {
                _ = await turnOnWakeup.wait(timeout: wait)
            } else {
                await checkTurnOn()
            }
        }
    }

    /// How long until the watch's deadline; nil (and no watcher) once the watch is over: the
    /// TV came on, the failure was reported, or the agent stopped.
    private func untilTurnOnDeadline() -> Duration? {
        guard !isStopped, let deadline = turnOnWatch.deadline else {
            watchingTurnOn = false
            return nil
        }
        return deadline - LoopClock.current.now
    }

    private func checkTurnOn() async {
        guard turnOnWatch.expired(now: LoopClock.current.now), let timeout = turnOnWatch.timeout else {
            return
        }
        let message = Self.wakeFailure(
            name: description.identity.name, seconds: timeout.wholeSeconds,
            macs: description.identity.macs,
            reachable: snapshot.reachable, hint: context.vendors.vendor(description.identity.kind)?.wakeHint)
        let origin = CommandOrigin(
            topic: context.topics.set(id, "power"), property: "power", transaction: nil)
        await context.commandFailed(message, tv: id.rawValue, origin: origin, command: .power(.on))
        await context.emit(
            BridgeEvent(
                .turnOnFailed, tv: id.rawValue, message: message,
                data: ["wake_timeout": .integer(timeout.wholeSeconds)]))
    }

    /// What to check when a TV did not wake: what the bridge knows (MACs, reachability) and
    /// the usual reasons Wake-on-LAN does not reach a TV, with the vendor's name for its
    /// network power-on setting (`Vendor.wakeHint`).
    static func wakeFailure(
        name: String, seconds: Int64, macs: [String], reachable: Bool, hint: String? = nil
    )
        -> String
    {
        let known =
            macs.isEmpty
            ? "no MAC address is known for it, so no Wake-on-LAN packet could be sent (add \"mac\" to its entry in tvs)"
            : "Wake-on-LAN went to \(macs.joined(separator: ", "))"
        let state = reachable ? "it answers but reports standby" : "it does not answer"
        return
            "\(name) is still not on \(seconds) s after ON (\(state)); \(known). Check that the TV is on wired Ethernet (many TVs wake only over Ethernet, or not after a long sleep), that its \"Power on by network\" setting is on\(hint.map { " (\($0))" } ?? ""), and that wol.targets reach its network; or add another way to wake it with the turn_on / requested trigger (IR, HDMI-CEC)"
    }
}

extension Duration {
    /// Whole seconds, rounded down.
    var wholeSeconds: Int64 { components.seconds }
}
