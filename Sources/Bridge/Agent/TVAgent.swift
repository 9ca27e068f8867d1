import Drivers
import Net
import Support
import Synchronization
import TVModel

/// The bridge's agent for one TV, composed of one part per job: its `TVPoller` polls it, its
/// `TVCommandLane` plans and carries out its commands, its `TVStateTracker` decides what its
/// availability and state topics are sent, and its `AppIconPublisher` owns its `app_icon`. The
/// agent keeps what ties them together: the driver's events, the description it adopts from the
/// driver (and the secrets it hands on), and the turn-on watch (`TVAgent+TurnOn.swift`).
actor TVAgent {
    nonisolated let id: TVID
    nonisolated let driver: any TVDriver
    let context: BridgeContext
    /// Called when identity, capabilities or apps change (persist, rediscover).
    let descriptionChanged: @Sendable (TVDescription) async -> Void
    /// Called with a new Samsung token or certificate pin to persist.
    let secretsChanged: @Sendable (_ token: String?, _ certificatePin: String?) async -> Void

    private nonisolated let poller: TVPoller
    private nonisolated let commands: TVCommandLane
    /// The driver's events waiting to be handled, and the task handling them while there are any.
    private nonisolated let events = Mutex(OnDemandQueue<DriverEvent>())
    private nonisolated let stopped = Atomic(false)

    private(set) var description: TVDescription
    /// What the TV's availability and state topics hold, and the events their changes raise.
    private var state: TVStateTracker
    var snapshot: TVSnapshot { state.snapshot }
    var lastSeen: Double? { state.lastSeen }
    private let appIcon: AppIconPublisher
    /// An `ON` waiting for the TV to come on (`TVAgent+TurnOn.swift`).
    var turnOnWatch: TurnOnWatch
    nonisolated let turnOnWakeup = Wakeup()
    /// A task is watching `turnOnWatch` (`TVAgent+TurnOn.swift`).
    var watchingTurnOn = false

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
        let poller = TVPoller(
            driver: driver, interval: .seconds(context.configuration.pollInterval), firstPolls: context.firstPolls)
        self.poller = poller
        commands = TVCommandLane(id: id, driver: driver, context: context) { poller.requestRefresh() }
        state = TVStateTracker(id: id, lastSeen: lastSeen)
        appIcon = AppIconPublisher(id: id, driver: driver, context: context)
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
        commands.stop()
        events.withLock { $0.carrier }?.cancel()
        turnOnWakeup.signal()
    }

    nonisolated var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// A parsed command message for this TV, handed to its command lane; an `ON` for a TV that is
    /// off starts the turn-on watch. The failure's message is returned, nil once queued.
    @discardableResult
    nonisolated func submit(_ commands: [CheckedCommand], origin: CommandOrigin) async -> String? {
        if isStopped { return "unknown TV '\(id)' (it was removed)" }  // the message came in while it was removed
        if let failure = await self.commands.submit(commands, origin: origin) { return failure }
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

    // MARK: state

    /// Publishes availability and state when they changed (README › MQTT topics and commands: state
    /// on change).
    func publish(_ new: TVSnapshot) async {
        turnOnWatch.observed(powerIsOn: new.power == true)
        let changes = state.update(
            new, description: description, limitedModeMessage: driver.limitedModeMessage)
        await context.publish(changes, of: id)
        if description.capabilities.appIcons { await appIcon.show(for: new) }
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
