import TVModel

/// Whether a TV came on after it was asked to (README › Events): pure bookkeeping,
/// no clock of its own, so it is tested without waiting.
///
/// An `ON` (power `ON`, a `TOGGLE` that resolves to on, the `power_on` key) while the TV is not
/// known to be on is a *request*: it fires `turn_on_requested` (the `turn_on`/`requested`
/// device trigger, for an automation to add an IR blaster or HDMI-CEC) and starts the watch.
/// The first snapshot with power on ends it; when the deadline passes first, the turn-on failed.
struct TurnOnWatch: Sendable {
    /// `wake_timeout`; nil = the watch is off (`wake_timeout: 0`): requests still fire.
    let timeout: Duration?
    private(set) var deadline: ContinuousClock.Instant?

    init(timeout: Duration?) { self.timeout = timeout }

    /// Whether `command` asks the TV to come on when it is off. `TOGGLE` from off is on (the
    /// driver resolves it against the confirmed state, which is off).
    static func asksToTurnOn(_ command: TVCommand) -> Bool {
        switch command {
        case .power(.on), .power(.toggle), .key(.shared(.powerOn), _): true
        default: false
        }
    }

    /// Commands accepted for the TV: true when they are a turn-on request (fire
    /// `turn_on_requested`); the watch then runs until `now + timeout` (a later request moves it).
    mutating func commandsAccepted(_ commands: [TVCommand], powerIsOn: Bool, now: ContinuousClock.Instant) -> Bool {
        guard !powerIsOn, commands.contains(where: Self.asksToTurnOn) else { return false }
        if let timeout { deadline = now + timeout }
        return true
    }

    /// A new snapshot: a TV that is on ends the watch.
    mutating func observed(powerIsOn: Bool) {
        if powerIsOn { deadline = nil }
    }

    /// True once, when the deadline has passed without the TV coming on.
    mutating func expired(now: ContinuousClock.Instant) -> Bool {
        guard let deadline, now >= deadline else { return false }
        self.deadline = nil
        return true
    }
}
