import Drivers
import MQTTInterface
import Net
import Support
import Synchronization
import TVModel
import Wire

/// The bridge's agent for one TV: its `TVPoller` polls it, and the agent plans each command it
/// is given, carries the plans out in order, and hands each snapshot to its `TVStateTracker`,
/// which decides what the broker is sent.
actor TVAgent {
    nonisolated let id: TVID
    nonisolated let driver: any TVDriver
    let context: BridgeContext
    /// Called when identity, capabilities or apps change (persist, rediscover).
    let descriptionChanged: @Sendable (TVDescription) async -> Void
    /// Called with a new Samsung token or certificate pin to persist.
    let secretsChanged: @Sendable (_ token: String?, _ certificatePin: String?) async -> Void

    private nonisolated let poller: TVPoller
    /// Commands waiting for the TV, and the task carrying them out while there are any.
    private nonisolated let commands = Mutex(OnDemandQueue<CommandJob>())
    /// The driver's events waiting to be handled, and the task handling them while there are any.
    private nonisolated let events = Mutex(OnDemandQueue<DriverEvent>())
    private nonisolated let stopped = Atomic(false)

    private(set) var description: TVDescription
    /// What the TV's availability and state topics hold, and the events their changes raise.
    private var state: TVStateTracker
    var snapshot: TVSnapshot { state.snapshot }
    var lastSeen: Double? { state.lastSeen }
    /// The `app_icon` topic: the icon cache and what the topic holds (`TVAgent+AppIcon.swift`).
    var appIcon = AppIconState()
    /// An `ON` waiting for the TV to come on (`TVAgent+TurnOn.swift`).
    var turnOnWatch: TurnOnWatch
    nonisolated let turnOnWakeup = Wakeup()
    /// A task is watching `turnOnWatch` (`TVAgent+TurnOn.swift`).
    var watchingTurnOn = false

    /// Commands waiting behind the one running (Tests/README.md › Reliability): a TV that stopped
    /// answering fails each command only after its timeout, so a burst of presses must not pile up
    /// without end.
    static let commandQueueLimit = TVCommand.queueLimit
    /// A command that waited longer than this is not sent (Tests/README.md › Reliability): a volume
    /// press or an app launch minutes after the user gave up on it would be a surprise, not a help.
    static let commandExpiry = Duration.seconds(5)

    init(
        description: TVDescription, driver: any TVDriver, context: BridgeContext, lastSeen: Double?,
        descriptionChanged: @escaping @Sendable (TVDescription) async -> Void,
        secretsChanged: @escaping @Sendable (_ token: String?, _ certificatePin: String?) async -> Void
    ) {
        let id = description.identity.id
        self.id = id
        self.description = description.bounded
        self.driver = driver
        self.context = context
        poller = TVPoller(
            driver: driver, interval: .seconds(context.configuration.pollInterval), firstPolls: context.firstPolls)
        state = TVStateTracker(id: id, lastSeen: lastSeen)
        self.descriptionChanged = descriptionChanged
        self.secretsChanged = secretsChanged
        let wakeTimeout = context.configuration.wakeTimeout(for: id, host: description.identity.host)
        turnOnWatch = TurnOnWatch(
            timeout: wakeTimeout > 0 ? .milliseconds(Int64(wakeTimeout * 1000)) : nil)
    }

    /// Starts the agent: its first poll now, then polls until `stop()`. Polls, the driver's
    /// events, commands and a turn-on watch each get a task only while there is something to
    /// do: a task keeps a few KB of frames for as long as it lives, and a fleet's TVs are idle
    /// nearly all the time.
    nonisolated func start() {
        driver.events.deliver { [weak self] event in self?.eventArrived(event) }
        poller.start { [weak self] snapshot, full in await self?.polled(snapshot, full: full) ?? false }
    }

    nonisolated func stop() {
        stopped.store(true, ordering: .relaxed)
        poller.stop()
        commands.withLock { $0.carrier }?.cancel()
        events.withLock { $0.carrier }?.cancel()
        turnOnWakeup.signal()
    }

    nonisolated var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// A parsed command message for this TV: each command is planned (checked against the TV
    /// and resolved, once) and the plans are queued; commands of one TV run one at a time, in
    /// arrival order. A command the driver refuses, or a queue already holding
    /// `commandQueueLimit` messages, fails the whole message with `command_failed` and
    /// nothing of it is sent (README › MQTT topics and commands); the failure's message is returned.
    @discardableResult
    nonisolated func submit(_ commands: [CheckedCommand], origin: CommandOrigin) async -> String? {
        if isStopped { return "unknown TV '\(id)' (it was removed)" }  // the message came in while it was removed
        var plans: [TVPlan] = []
        for command in commands {
            do {
                plans.append(try driver.plan(command))
            } catch {
                await context.commandFailed(error.message, tv: id.rawValue, origin: origin)
                return error.message
            }
        }
        Trace.mark(.planned)
        let job = CommandJob(plans: plans, origin: origin, received: LoopClock.current.now)
        // The carrier is unstructured (the submitter must not wait for it) and ends when the
        // queue is empty; `stop()` cancels it, which releases a held key.
        let queued = self.commands.withLock {
            $0.add(job, limit: Self.commandQueueLimit) { Task { await self.carryOutCommands() } }
        }
        guard queued else {
            let message =
                "the command queue of this TV is full (\(Self.commandQueueLimit) commands wait for it); the TV is not keeping up, try again later"
            await context.commandFailed(message, tv: id.rawValue, origin: origin)
            return message
        }
        await accepted(commands.map(\.command))
        return nil
    }

    /// What a poll found: published, and the description refreshed when it may have changed;
    /// whether the app in front is missing from the TV's app list.
    private func polled(_ snapshot: TVSnapshot, full: Bool) async -> Bool {
        await publish(snapshot)
        if full || snapshot.reachable { await adopt(await driver.description) }
        return appIsUnknown(snapshot)
    }

    /// Carries out queued commands one at a time, in arrival order, until none is left or the
    /// agent stops (what is left then is for a TV being removed or a bridge shutting down).
    private nonisolated func carryOutCommands() async {
        while !Task.isCancelled, let job = commands.withLock({ $0.next() }) {
            await execute(job)
        }
    }

    /// An event from the driver (on the thread that yielded it): queued, and handled in order
    /// by a task that lives while events wait.
    private nonisolated func eventArrived(_ event: DriverEvent) {
        if isStopped { return }
        _ = events.withLock { $0.add(event) { Task { await self.handleEvents() } } }
    }

    private nonisolated func handleEvents() async {
        while !Task.isCancelled, let event = events.withLock({ $0.next() }) {
            await handle(event)
        }
    }

    // MARK: commands

    private func execute(_ job: CommandJob) async {
        Trace.mark(.dequeued)
        let waited = milliseconds(LoopClock.current.now - job.received)
        if waited > milliseconds(Self.commandExpiry) {
            await context.commandFailed(
                "expired: the command waited \(waited) ms behind earlier ones for this TV; commands older than \(milliseconds(Self.commandExpiry)) ms are dropped, not sent late",
                tv: id.rawValue, origin: job.origin, command: job.plans.first?.command)
            return
        }
        for plan in job.plans {
            let started = LoopClock.current.now
            do {
                try await driver.execute(plan)
                // The metadata is built only when it is logged: a command allocates nothing for it.
                if context.logger.isEnabled(.debug) {
                    context.logger.debug(
                        "command done",
                        [
                            ("tv", id.rawValue), ("command", plan.command.name),
                            ("ms", "\(milliseconds(since: started))"),
                        ])
                }
            } catch {
                await context.commandFailed(
                    error.message, tv: id.rawValue, origin: job.origin, command: plan.command)
                poller.requestRefresh()
                return
            }
        }
        poller.requestRefresh()
        if let transaction = job.origin.transaction {
            await context.respond(context.topics.response(id), ok: true, transaction: transaction)
        }
    }

    // MARK: state

    /// Publishes availability and state when they changed (README › MQTT topics and commands: state
    /// on change).
    func publish(_ new: TVSnapshot) async {
        turnOnWatch.observed(powerIsOn: new.power == true)
        let changes = state.update(
            new, description: description, limitedModeMessage: driver.limitedModeMessage)
        await context.publish(changes, of: id)
        await showAppIcon(for: new)
    }

    private func handle(_ event: DriverEvent) async {
        switch event {
        case .state(let pushed):
            await publish(pushed)
            poller.statePushed()
        case .description(let updated):
            await adopt(updated)
        case .pairingRequired(let message):
            await context.emit(BridgeEvent(.pairingRequired, tv: id.rawValue, message: message))
        case .token(let token):
            await secretsChanged(token, nil)
        case .certificatePinned(let pin):
            await secretsChanged(nil, pin)
        case .certificateChanged(let pinned, let seen):
            await context.emit(
                BridgeEvent(
                    .certificateChanged, tv: id.rawValue,
                    message:
                        "the TV presented a different TLS certificate than the one pinned (\(pinned.prefix(16))… → \(seen.prefix(16))…); if the TV was reset or replaced, remove it with bridge/request/tv/remove and let it be discovered again"
                ), level: .error)
        case .warning(let message):
            context.logger.warning(message, [("tv", id.rawValue)])
        }
    }

    /// Takes a new description from the driver, keeping the user's chosen name and id.
    func adopt(_ updated: TVDescription) async {
        var merged = updated.bounded
        merged.identity.id = description.identity.id
        merged.identity.name = description.identity.name
        guard merged != description else { return }
        description = merged
        await descriptionChanged(merged)
    }

    /// A renamed TV keeps everything else.
    func rename(_ name: String) async {
        description.identity.name = name
        await descriptionChanged(description)
    }

    private func appIsUnknown(_ snapshot: TVSnapshot) -> Bool {
        guard let appID = snapshot.appID, !description.apps.isEmpty else { return false }
        return !description.apps.contains { $0.id == appID } && driver.appListShouldContain(appID)
    }
}

func milliseconds(since start: ContinuousClock.Instant) -> Int64 {
    milliseconds(LoopClock.current.now - start)
}

func milliseconds(_ duration: Duration) -> Int64 {
    duration.wholeMilliseconds
}
