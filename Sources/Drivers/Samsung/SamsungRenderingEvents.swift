import Clients
import Net
import Support
import Synchronization
import TVModel
import Wire

/// Volume and mute pushed by the TV: a GENA subscription to the DMR's RenderingControl
/// events, kept while the TV is on (Samsung/README.md › Protocols).
///
/// The loop subscribes once a poll has seen the TV on, renews at half the granted timeout,
/// subscribes again when a renewal is refused (412: the TV forgot us, e.g. after a restart),
/// and unsubscribes at `stop()`. Each `LastChange` event updates the last polled snapshot's
/// volume and mute and is pushed as `DriverEvent.state`. Polling goes on at `poll_interval`
/// whatever happens here: while the subscription fails, it is what keeps volume and mute
/// current, and the log says so once (and once when events work again).
final class SamsungRenderingEvents: Sendable {
    struct State {
        var host: String
        /// The last poll's snapshot; events change its volume and mute.
        var snapshot: TVSnapshot?
        var registration: GENARegistration?
        var sid: String?
        /// The SEQ of the last event applied: one overtaken by a later one (they come on
        /// separate connections) must not undo it.
        var lastSeq: UInt32?
        /// Events applied so far: a poll that read volume and mute compares it with its start.
        var pushes: UInt64 = 0
        /// The event path from the DMR description, once read.
        var eventPath: String?
        /// A failure was logged and no success since.
        var failing = false
        var stopped = false
        var loop: Task<Void, Never>?
    }

    /// What the bridge asks for; the TV may grant less (renewals follow what it grants).
    static let requestedTimeoutSeconds = 1800
    static let retryDelays: [Duration] = [
        .seconds(2), .seconds(5), .seconds(15), .seconds(30), .seconds(60),
    ]

    let listener: GENANotifyListener
    let subscriber: GENASubscriber
    let logger: Logger
    let emit: @Sendable (DriverEvent) -> Void
    let state: Mutex<State>
    let wakeup = Wakeup()

    init(
        listener: GENANotifyListener, http: HTTPClient, host: String, logger: Logger,
        emit: @escaping @Sendable (DriverEvent) -> Void
    ) {
        self.listener = listener
        subscriber = GENASubscriber(http: http)
        self.logger = logger
        self.emit = emit
        state = Mutex(State(host: host))
    }

    func start() {
        let loop = Task { [weak self] in
            guard let self else { return }
            await self.run()
        }
        state.withLock { $0.loop = loop }
    }

    /// Whether volume and mute are pushed: subscribed, and an event of this subscription (the
    /// initial one carries both) has been applied.
    var isPushing: Bool { state.withLock { $0.sid != nil && $0.lastSeq != nil && !$0.failing } }

    /// Events applied so far: taken before a poll reads volume and mute (`polled(readSince:)`).
    var pushCount: UInt64 { state.withLock { $0.pushes } }

    /// After every poll: the snapshot events will amend, and whether the TV is on now. With
    /// `keepingPushed` (the poll did not read them) it keeps the pushed volume and mute, also
    /// one pushed while the poll ran; so it does when an event was applied after the poll's
    /// read began (`readSince`, the `pushCount` then), as that read is the older. Returns the
    /// snapshot to publish.
    @discardableResult
    func polled(_ snapshot: TVSnapshot, keepingPushed: Bool = false, readSince: UInt64? = nil) -> TVSnapshot {
        var snapshot = snapshot
        let wasOn = state.withLock { state -> Bool in
            let wasOn = state.snapshot.map(Self.isOn) ?? false
            let pushedSinceRead = readSince.map { state.pushes != $0 } ?? false
            if keepingPushed || pushedSinceRead, let last = state.snapshot {
                snapshot.volume = last.volume
                snapshot.muted = last.muted
            }
            state.snapshot = snapshot
            return wasOn
        }
        if Self.isOn(snapshot) != wasOn { wakeup.signal() }
        return snapshot
    }

    func updateHost(_ host: String) {
        let registration = state.withLock { state -> GENARegistration? in
            state.host = host
            return state.registration
        }
        if let registration { listener.update(registration, host: host) }
    }

    /// Ends the loop, unsubscribes (when subscribed) and leaves the listener.
    func stop() async {
        let loop = state.withLock { state -> Task<Void, Never>? in
            state.stopped = true
            return state.loop
        }
        wakeup.signal()
        loop?.cancel()
        await loop?.value
        let (registration, sid, path) = state.withLock { state in
            defer {
                state.registration = nil
                state.sid = nil
            }
            return (
                state.registration, state.sid, state.eventPath ?? UPnPRenderingControl.defaultEventPath
            )
        }
        if let sid {
            do {
                try await subscriber.unsubscribe(path: path, sid: sid)
            } catch {
                logger.debug("UPnP UNSUBSCRIBE failed: \(error.message)")
            }
        }
        if let registration { listener.unregister(registration) }
    }

    static func isOn(_ snapshot: TVSnapshot) -> Bool { snapshot.reachable && snapshot.power == true }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    // MARK: the loop

    private func run() async {
        var failures = 0
        var renewAt: ContinuousClock.Instant?
        while !isStopped && !Task.isCancelled {
            let (on, sid) = state.withLock { ($0.snapshot.map(Self.isOn) ?? false, $0.sid) }
            guard on else {
                // Standby or gone: the TV's UPnP server is down and the subscription with it.
                if sid != nil { forget() }
                renewAt = nil
                failures = 0
                _ = await wakeup.wait(timeout: .seconds(60))
                continue
            }
            if let sid, let at = renewAt {
                if LoopClock.current.now < at {
                    _ = await wakeup.wait(timeout: LoopClock.current.now.duration(to: at))
                    continue
                }
                renewAt = await renew(sid)
                if renewAt != nil { continue }
            }
            renewAt = await subscribe()
            if renewAt == nil {
                let delay = Self.retryDelays[min(failures, Self.retryDelays.count - 1)]
                failures += 1
                _ = await wakeup.wait(timeout: delay)
            } else {
                failures = 0
            }
        }
    }

    /// A new subscription; returns when to renew it, nil on failure (logged once).
    private func subscribe() async -> ContinuousClock.Instant? {
        let registration: GENARegistration
        do {
            registration = try registered()
        } catch {
            failed("cannot listen for events on port \(listener.port): \(error.detail)")
            return nil
        }
        let path = await eventPath()
        guard
            let callback = listener.callbackURL(
                for: registration, localAddress: await subscriber.localAddress)
        else {
            failed("no local address to give the TV as the callback")
            return nil
        }
        listener.subscribing(registration)
        do {
            let answer = try await subscriber.subscribe(
                path: path, callback: callback, timeoutSeconds: Self.requestedTimeoutSeconds)
            state.withLock { state in
                state.sid = answer.sid
                state.lastSeq = nil
            }
            listener.expect(sid: answer.sid, for: registration)
            logger.debug(
                "UPnP events subscribed",
                [("callback", callback), ("timeout", "\(answer.timeoutSeconds ?? 0)")])
            recovered()
            return Self.renewalTime(answer)
        } catch {
            listener.expect(sid: nil, for: registration)
            failed(error.message)
            return nil
        }
    }

    /// Renews `sid`; nil when the TV refused or did not answer (then a new SUBSCRIBE follows).
    private func renew(_ sid: String) async -> ContinuousClock.Instant? {
        let path = await eventPath()
        do {
            let answer = try await subscriber.renew(
                path: path, sid: sid, timeoutSeconds: Self.requestedTimeoutSeconds)
            logger.debug("UPnP events renewed", [("timeout", "\(answer.timeoutSeconds ?? 0)")])
            return Self.renewalTime(answer)
        } catch {
            logger.debug("UPnP events renewal failed, subscribing again: \(error.message)")
            forget()
            return nil
        }
    }

    /// Half the granted timeout (at least a second), as UPnP control points do.
    static func renewalTime(_ answer: GENASubscribeAnswer) -> ContinuousClock.Instant {
        let granted = answer.timeoutSeconds ?? requestedTimeoutSeconds
        return LoopClock.current.now + .milliseconds(max(1000, granted * 500))
    }

    private func forget() {
        let registration = state.withLock { state -> GENARegistration? in
            state.sid = nil
            return state.registration
        }
        if let registration { listener.expect(sid: nil, for: registration) }
    }

    private func registered() throws(NetError) -> GENARegistration {
        if let existing = state.withLock({ $0.registration }) { return existing }
        let host = state.withLock { $0.host }
        let registration = try listener.register(host: host) { [weak self] notify in
            self?.receive(notify)
        }
        state.withLock { $0.registration = registration }
        return registration
    }

    /// The eventSubURL from `/dmr`, read once; Samsung's usual path when it cannot be read.
    private func eventPath() async -> String {
        if let known = state.withLock({ $0.eventPath }) { return known }
        var path: String?
        do {
            let response = try await subscriber.http.request("GET", UPnPRenderingControl.descriptionPath)
            if response.isSuccess {
                path = try UPnPDeviceDescription.renderingControlEventPath(response.body)
            }
        } catch {
            logger.debug("UPnP description: \(error)")
        }
        guard let path else { return UPnPRenderingControl.defaultEventPath }
        state.withLock { $0.eventPath = path }
        return path
    }

    private func failed(_ reason: String) {
        let first = state.withLock { state -> Bool in
            defer { state.failing = true }
            return !state.failing
        }
        if first {
            logger.warning(
                "UPnP events for volume and mute are not working (\(reason)); they are polled every poll_interval until the TV accepts a subscription"
            )
        } else {
            logger.debug("UPnP events still not working: \(reason)")
        }
    }

    private func recovered() {
        let was = state.withLock { state -> Bool in
            defer { state.failing = false }
            return state.failing
        }
        if was { logger.info("UPnP events for volume and mute work again; changes are pushed") }
    }

    // MARK: events

    /// One accepted NOTIFY: its LastChange applied to the last snapshot and pushed.
    func receive(_ notify: GENANotify) -> GENANotifyRefusal? {
        let change: UPnPRenderingChange?
        do {
            change = try UPnPLastChange.change(in: notify)
        } catch {
            return .badRequest(error.message)
        }
        guard let change, !change.isEmpty else { return nil }
        let pushed = state.withLock { state -> TVSnapshot? in
            if let last = state.lastSeq, notify.seq != 0, notify.seq <= last { return nil }
            state.lastSeq = notify.seq
            guard var snapshot = state.snapshot, Self.isOn(snapshot) else { return nil }
            if let volume = change.volume { snapshot.volume = volume }
            if let muted = change.muted { snapshot.muted = muted }
            state.snapshot = snapshot
            state.pushes += 1
            return snapshot
        }
        if let pushed { emit(.state(pushed)) }
        return nil
    }
}
