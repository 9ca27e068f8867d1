import TVModel

/// One TV's protocol: state out, commands in. A driver owns its connections; the bridge owns
/// the schedule (one poller and one command queue per TV).
///
/// A command's path: the bridge parses it, `plan` checks and resolves it once, the plan waits
/// in the TV's queue, `execute` sends it.
public protocol TVDriver: AnyObject, Sendable {
    var kind: TVKind { get }

    /// Identity, capabilities and apps as last learned (persisted ones until the TV answers).
    var description: TVDescription { get async }

    /// Reads the TV's state. `full` also refreshes what changes rarely (the app list).
    /// Never throws: a TV that does not answer gives a snapshot with `reachable == false`.
    func poll(full: Bool) async -> TVSnapshot

    /// Checks a command already within its limits (`CheckedCommand`) against what this TV
    /// accepts (key allowlist, app names, inputs, capabilities) and resolves it into what
    /// `execute` will send. Pure: nothing is sent; no range is checked again here.
    func plan(_ command: CheckedCommand) throws(CommandRejection) -> TVPlan

    /// Carries out a plan this driver made.
    func execute(_ plan: TVPlan) async throws(DriverError)

    /// Whether an app id seen in front belongs on the app list: false for what the TV never
    /// lists (a Roku's inputs and home screen). One that belongs there but is missing makes
    /// the bridge read the list again.
    func appListShouldContain(_ appID: String) -> Bool

    /// What the user reads when the TV turns to limited remote control (`limited_mode`):
    /// what it means and where on the TV to change it.
    var limitedModeMessage: String { get }

    /// Pushed state and notable happenings. One consumer (the TV's agent).
    var events: DriverEvents { get }

    /// While the TV pushes its state (`DriverEvent.state`), how often the bridge still polls,
    /// only to reconcile (Roku ECP-2: 60 s); `nil` when nothing is pushed, so the bridge polls
    /// at `poll_interval`. When it turns back to `nil` the driver sends a `.state` event, on
    /// which the bridge polls at once and resumes `poll_interval`.
    var reconcileInterval: Duration? { get }

    /// The TV answered on a new address (DHCP): use it from now on.
    func updateHost(_ host: String) async

    /// Whether the device at `host` proves it is this TV beyond the identity anyone can claim
    /// (a serial, a UDN): a Samsung with a pinned certificate presents that certificate on its
    /// TLS port there. The bridge asks before it moves a TV to a new address, and of the old
    /// address, whether it still answers as the TV. True when there is nothing to prove.
    func provesIdentity(at host: String) async -> Bool

    /// Closes connections and ends `events`.
    func shutdown() async

    /// Asks the TV to approve tv2mqtt and waits for the answer (vendors whose descriptor says
    /// `pairs`); others need no pairing.
    func pair() async throws(DriverError)

    /// Pairs with the PIN the TV shows (vendors whose descriptor says `pairsByPIN`): sent to a
    /// PIN screen a `pair()` left showing, or to the one a new registration brings up.
    func pair(pin: String) async throws(DriverError)

    /// The icon of an app (TVs whose capabilities say `appIcons`); nil when the TV has none
    /// for it (an input, the home screen). Thrown errors are passing (unreachable, timeout).
    func appIcon(_ appID: String) async throws(DriverError) -> AppIcon?

    /// Secrets another tv2mqtt process saved for this TV (`tv2mqtt pair` while the daemon
    /// runs): used from the next connection on.
    func adoptSecrets(token: String?, certificatePin: String?) async
}

extension TVDriver {
    /// A command its caller built (`tv2mqtt send`, tests): checked against its limits, the
    /// one check, then planned.
    public func plan(_ command: TVCommand) throws(CommandRejection) -> TVPlan {
        try plan(try command.checkedForPlanning())
    }

    /// Plans and carries out one command at once, for a caller with no queue between the two
    /// (`tv2mqtt send`, driver tests); a refused command is a `.rejected` error.
    public func perform(_ command: TVCommand) async throws(DriverError) {
        let plan: TVPlan
        do {
            plan = try self.plan(command)
        } catch {
            throw DriverError(.rejected, error.message)
        }
        try await execute(plan)
    }

    public var reconcileInterval: Duration? { nil }

    public func appListShouldContain(_ appID: String) -> Bool { true }

    public var limitedModeMessage: String { "the TV refuses remote control (limited mode)" }

    /// No secret to check (Roku: ECP has none): the identity the device reports is all there is.
    public func provesIdentity(at host: String) async -> Bool { true }

    public func pair() async throws(DriverError) {
        throw DriverError(.unsupported, "this TV needs no pairing")
    }

    public func pair(pin: String) async throws(DriverError) {
        throw DriverError(.unsupported, "this TV does not pair by PIN")
    }

    public func adoptSecrets(token: String?, certificatePin: String?) async {}

    public func appIcon(_ appID: String) async throws(DriverError) -> AppIcon? { nil }
}
