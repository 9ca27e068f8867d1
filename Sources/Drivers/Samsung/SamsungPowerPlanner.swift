import TVModel

/// What the driver knows about a Samsung TV's power when a power command arrives.
public struct SamsungPowerContext: Equatable, Sendable {
    /// The last REST reading; `nil` when the REST API did not answer (`reachable` false) or
    /// the TV has no `PowerState` (before ~2019).
    public var powerState: SamsungDeviceInfo.PowerState?
    /// The REST API answered just now.
    public var reachable: Bool
    /// `FrameTVSupport`: a click only enters Art mode; power-off is a 3 s hold.
    public var frameTV: Bool
    /// We powered the TV off within the grace window (`SamsungPowerGrace`).
    public var recentlyPoweredOff: Bool

    public init(
        powerState: SamsungDeviceInfo.PowerState?, reachable: Bool, frameTV: Bool,
        recentlyPoweredOff: Bool
    ) {
        self.powerState = powerState
        self.reachable = reachable
        self.frameTV = frameTV
        self.recentlyPoweredOff = recentlyPoweredOff
    }

    /// Whether the TV is confirmed on: `PowerState` `on`, or reachable on a TV without
    /// `PowerState` (such a TV is on when it answers). Never during the grace window.
    public var confirmedOn: Bool {
        guard reachable, !recentlyPoweredOff else { return false }
        switch powerState {
        case .on, .none: return true
        case .standby, .other: return false
        }
    }

    /// Whether the TV is confirmed in standby and reachable (KEY_POWER would turn it on).
    public var confirmedStandby: Bool { reachable && powerState == .standby }
}

/// One step of carrying out a power command.
public enum SamsungPowerStep: Equatable, Sendable {
    /// A magic packet to every known MAC at every target.
    case wakeOnLAN
    /// A KEY_POWER click on the remote channel.
    case clickPower
    /// Press KEY_POWER, wait, release: a Frame TV's real power-off.
    case holdPower(Duration)
    /// Start reporting OFF for the grace window (`SamsungPowerGrace.start`).
    case startGraceWindow
    /// Stop the grace window (the user wants the TV on again).
    case endGraceWindow
}

/// The decision for one power command: the steps, and what to report meanwhile.
public struct SamsungPowerPlan: Equatable, Sendable {
    public var steps: [SamsungPowerStep]
    /// The power to publish at once (`false` right after power-off); `nil` to wait for a poll.
    public var reportedPower: Bool?
    /// Why, for the debug log ("already off", "confirmed standby: wake and KEY_POWER"…).
    public var reason: String

    public init(steps: [SamsungPowerStep], reportedPower: Bool?, reason: String) {
        self.steps = steps
        self.reportedPower = reportedPower
        self.reason = reason
    }
}

/// Idempotent power for Samsung TVs (README › MQTT topics and commands, `power`). KEY_POWER is a
/// toggle (a pure one since late-2025 firmware), so it is sent only when the current state is
/// confirmed: OFF only when the TV is confirmed on, ON only when it is confirmed in standby.
/// Wake-on-LAN is harmless and goes out for every ON.
public enum SamsungPowerPlanner {
    /// How long a Frame TV's KEY_POWER is held to really power off. The TV wants at least 3 s
    /// between Press and Release as it receives them; the extra half second keeps a Press that
    /// reaches it late (a busy network, a busy TV) from turning into a click, which would only
    /// switch art mode.
    public static let frameHold: Duration = .milliseconds(3500)

    public static func plan(_ action: PowerAction, context: SamsungPowerContext) -> SamsungPowerPlan {
        switch action {
        case .on: return planOn(context)
        case .off: return planOff(context)
        case .toggle: return context.confirmedOn ? planOff(context) : planOn(context)
        }
    }

    private static func planOn(_ context: SamsungPowerContext) -> SamsungPowerPlan {
        if !context.reachable {
            return SamsungPowerPlan(
                steps: [.wakeOnLAN, .endGraceWindow], reportedPower: nil, reason: "unreachable: Wake-on-LAN"
            )
        }
        if context.confirmedStandby {
            return SamsungPowerPlan(
                steps: [.wakeOnLAN, .clickPower, .endGraceWindow], reportedPower: nil,
                reason: "confirmed standby: Wake-on-LAN and KEY_POWER")
        }
        if context.recentlyPoweredOff {
            // The REST API still says "on" while the TV shuts down; KEY_POWER now could turn
            // it off if our power-off never happened. Wake it and let the next poll tell.
            return SamsungPowerPlan(
                steps: [.wakeOnLAN, .endGraceWindow], reportedPower: nil,
                reason: "still shutting down: Wake-on-LAN only, no toggle")
        }
        if context.confirmedOn {
            return SamsungPowerPlan(steps: [.wakeOnLAN], reportedPower: true, reason: "already on")
        }
        return SamsungPowerPlan(
            steps: [.wakeOnLAN], reportedPower: nil,
            reason: "power state not confirmed: Wake-on-LAN only, no toggle")
    }

    private static func planOff(_ context: SamsungPowerContext) -> SamsungPowerPlan {
        if context.recentlyPoweredOff {
            return SamsungPowerPlan(steps: [], reportedPower: false, reason: "already powering off")
        }
        guard context.confirmedOn else {
            let reason =
                context.reachable
                ? "not confirmed on (\(context.powerState?.rawValue ?? "?")): nothing sent"
                : "unreachable: already off"
            return SamsungPowerPlan(
                steps: [], reportedPower: context.reachable ? nil : false, reason: reason)
        }
        let key: SamsungPowerStep = context.frameTV ? .holdPower(frameHold) : .clickPower
        return SamsungPowerPlan(
            steps: [key, .startGraceWindow], reportedPower: false,
            reason: context.frameTV ? "on, Frame TV: hold KEY_POWER 3 s" : "on: KEY_POWER")
    }

    /// The remote-channel steps for a KEY_POWER step (nil for steps that are not keys).
    public static func remoteSteps(for step: SamsungPowerStep) -> [SamsungRemoteStep]? {
        switch step {
        case .clickPower: return [.message(.key("KEY_POWER", .click))]
        case .holdPower(let duration):
            return [
                .message(.key("KEY_POWER", .press)), .pause(duration),
                .message(.key("KEY_POWER", .release)),
            ]
        case .wakeOnLAN, .startGraceWindow, .endGraceWindow: return nil
        }
    }
}
