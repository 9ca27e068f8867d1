import Clients
import Net
import TVModel
import Wire

/// ECP-2 (`roku.ecp2: auto`, Roku/README.md › ECP-2): one session per TV, opened on the first poll,
/// kept up with WebSocket pings, reopened with backoff. While it is up, commands go through it (in
/// order, and past Limited mode) and the TV pushes its state; when it is down, everything is HTTP
/// ECP as before.
extension RokuDriver {
    /// How often the bridge polls while the TV pushes its state: only to reconcile.
    static let reconcileWhilePushed = Duration.seconds(60)
    /// A Roku that refused the upgrade (firmware without ECP-2) or our authentication is
    /// asked again this rarely, and reported once.
    static let retryAfterRefusal = Duration.seconds(600)

    /// See `TVDriver.reconcileInterval`.
    public var reconcileInterval: Duration? {
        state.withLock { $0.link.pushing ? Self.reconcileWhilePushed : nil }
    }

    /// The session, when commands can use it.
    var ecp2Session: RokuECP2Session? { state.withLock { $0.link.session } }

    func startECP2IfNeeded() {
        guard roku.ecp2 == .auto else { return }
        state.withLock { state in
            guard state.link.task == nil, !state.link.stopped else { return }
            if let retryAt = state.link.retryAt, LoopClock.current.now < retryAt { return }
            state.link.retryAt = nil
            state.link.task = Task { await self.runECP2() }
        }
    }

    func stopECP2() async {
        let (task, session) = state.withLock { state in
            state.link.stopped = true
            defer { state.link.task = nil }
            return (state.link.task, state.link.session)
        }
        linkChanged.signal()
        task?.cancel()
        if let session { _ = try? await session.connection.close() }
        await task?.value
    }

    private func runECP2() async {
        var failures = 0
        while !Task.isCancelled {
            let (host, port) = state.withLock {
                ($0.description.identity.host, $0.description.identity.port)
            }
            let delay: Duration
            do {
                let session = try await RokuECP2Session.open(host: host, port: port, settings: settings)
                failures = 0
                state.withLock { $0.link.refusalReported = false }
                logger.info("ECP-2 session up")
                await serve(session)
                if Task.isCancelled { return }
                logger.info("ECP-2 session lost; HTTP ECP and polling at poll_interval until it is back")
                delay = .seconds(1)
            } catch {
                switch error {
                case .refused(let status, let message):
                    let text =
                        "the Roku does not offer ECP-2 (HTTP \(status.map(String.init) ?? "?")); staying on HTTP ECP and asking again every 10 min"
                    if reportRefusal() { logger.info(text) } else { logger.debug(message) }
                    endUntilRetry()
                    return
                case .authentication(let message):
                    if reportRefusal() {
                        logger.warning(message)
                        events.yield(.warning(message))
                    } else {
                        logger.debug(message)
                    }
                    endUntilRetry()
                    return
                case .failed(let error):
                    failures += 1
                    logger.debug("ECP-2 session not opened: \(error.message)")
                    delay = Self.backoff(failures)
                }
            }
            do {
                try await EventLoop.sleep(for: delay)  // paced: the reconnect backoff
            } catch {
                return
            }
        }
    }

    /// true the first time since the last session (a refusal is said once, then retried quietly).
    private func reportRefusal() -> Bool {
        state.withLock { state in
            defer { state.link.refusalReported = true }
            return !state.link.refusalReported
        }
    }

    /// The task ends; a poll after `retryAfterRefusal` starts the next attempt.
    private func endUntilRetry() {
        state.withLock { state in
            state.link.retryAt = LoopClock.current.now + Self.retryAfterRefusal
            state.link.task = nil
        }
        linkChanged.signal()
    }

    /// 1 s doubling to 60 s, ±20 % jitter so a fleet that lost power does not reconnect in step.
    static func backoff(_ failures: Int) -> Duration {
        let seconds = Double(min(60, 1 << min(max(failures - 1, 0), 6)))
        return .milliseconds(Int(seconds * 1000 * Double.random(in: 0.8...1.2)))
    }

    /// Reads the session until it closes: responses to their requests, notifies into the state.
    private func serve(_ session: RokuECP2Session) async {
        let up = state.withLock { state -> TVSnapshot? in
            state.link.session = session
            state.link.current?.controlPath = .ecp2
            return state.link.current
        }
        linkChanged.signal()
        if let up { events.yield(.state(up)) }
        await withDiscardingTaskGroup { group in
            group.addTask { await self.subscribe(session) }
            await session.read { text in await self.receive(text, on: session) }
        }
        let down = state.withLock { $0.link.sessionEnded() }
        if let down, !Task.isCancelled { events.yield(.state(down)) }
    }

    private func subscribe(_ session: RokuECP2Session) async {
        let events = RokuECP2Events.subscribed.map { "+" + $0 }.joined(separator: ",")
        do {
            _ = try await session.request("request-events", ["param-events": events])
        } catch {
            logger.info(
                "ECP-2 events refused (\(error.message)): commands use the session, state is polled")
            return
        }
        state.withLock { if $0.link.session === session { $0.link.pushing = true } }
        scheduleRefresh(session)  // the foreground as the session sees it (Limited mode hides media-player from HTTP)
    }

    private func receive(_ text: String, on session: RokuECP2Session) async {
        let message: ECP2Message
        do {
            message = try ECP2Message.parse(text)
        } catch {
            logger.debug("ignored an ECP-2 message: \(error.reason)")
            return
        }
        switch message.kind {
        case .response?: await session.deliver(message)
        case .notify?: apply(message, session: session)
        case .request?, nil: return
        }
    }

    /// A notify into the snapshot: published at once (`DriverEvent.state`), and the
    /// description when the TV first reports its volume (the volume and mute entities appear).
    private func apply(_ notify: ECP2Message, session: RokuECP2Session) {
        let (snapshot, described, refresh) = state.withLock {
            state -> (TVSnapshot?, TVDescription?, Bool) in
            // Before the first poll has finished there is nothing to apply a change to: that
            // poll (under way) reads the whole state.
            guard var current = state.link.current else { return (nil, nil, false) }
            let outcome = RokuECP2Events.apply(notify, to: &current, apps: state.apps)
            current.controlPath = .ecp2
            state.link.volume = current.volume
            state.link.muted = current.muted
            var described: TVDescription?
            if outcome.reportsVolume && !state.link.reportsVolume {
                state.link.reportsVolume = true
                state.description.capabilities.volumeLevel = true
                state.description.capabilities.muteState = true
                described = state.description
            }
            guard outcome.changed else { return (nil, described, outcome.refresh) }
            state.link.generation += 1
            state.link.current = current
            return (current, described, outcome.refresh)
        }
        if let described { events.yield(.description(described)) }
        if let snapshot { events.yield(.state(snapshot)) }
        if refresh { scheduleRefresh(session) }
    }

    /// Asks the session what is in the foreground, coalescing notifies that come in bursts.
    func scheduleRefresh(_ session: RokuECP2Session) {
        let start = state.withLock { state -> Bool in
            if state.link.refreshing {
                state.link.refreshAgain = true
                return false
            }
            state.link.refreshing = true
            return true
        }
        if start { Task { await self.refreshLoop(session) } }
    }

    private func refreshLoop(_ session: RokuECP2Session) async {
        var rounds = 0
        repeat {
            rounds += 1
            let (generation, power) = state.withLock { state in
                state.link.refreshAgain = false
                return (state.link.generation, state.link.current?.power)
            }
            guard power == true else { continue }
            var read = TVSnapshot(reachable: true)
            await readForeground(into: &read, session: session)
            guard read.app != nil else { continue }  // the session failed: nothing learned
            let snapshot = state.withLock { state -> TVSnapshot? in
                guard state.link.session === session, var current = state.link.current else { return nil }
                // A notify arrived meanwhile: what it said is newer than this answer; ask again.
                guard state.link.generation == generation else {
                    if rounds < 3 { state.link.refreshAgain = true }
                    return nil
                }
                current.app = read.app
                current.appID = read.appID
                current.input = read.input
                current.mediaState = read.mediaState
                current.position = read.position
                current.duration = read.duration
                current.live = read.live
                current.channelNumber = read.channelNumber
                current.channelName = read.channelName
                current.channel = read.channel
                current.mediaTitle = read.mediaTitle
                current.mediaDescription = read.mediaDescription
                guard current != state.link.current else { return nil }
                state.link.generation += 1
                state.link.current = current
                return current
            }
            if let snapshot { events.yield(.state(snapshot)) }
        } while state.withLock({ state in
            if state.link.refreshAgain && state.link.session === session { return true }
            state.link.refreshing = false
            return false
        })
    }
}
