import TVModel

/// The current app (the `current_app` sensor, and the `app` select's state), from at most
/// `SamsungAppWatch.requestsPerPoll` REST app requests per poll while the TV is on; see
/// `SamsungAppWatch` for the order and the detection delay.
extension SamsungDriver {
    /// Asks the TV about the candidate, then scans, and returns the app in front (nil: the
    /// home screen, a source, or an app without REST status). A failed request ends the
    /// round and keeps what was known: a transient error is not "nothing is running".
    func readCurrentApp(poweredOn: Bool) async -> TVApp? {
        guard poweredOn else {
            forgetCurrentApp()
            return nil
        }
        var budget = SamsungAppWatch.requestsPerPoll
        var asked: Set<String> = []
        if let candidate = state.withLock({ $0.appWatch.candidate }) {
            budget -= 1
            asked.insert(candidate)
            switch await check(candidate) {
            case .inFront(let app): return app
            case .failed: return state.withLock { $0.currentApp }
            case .notInFront: break
            }
        }
        while budget > 0 {
            let next = state.withLock { state in
                state.appWatch.nextScan(known: state.description.apps.map(\.id), asked: asked)
            }
            guard let next else { break }
            budget -= 1
            asked.insert(next)
            switch await check(next) {
            case .inFront(let app): return app
            case .failed: return state.withLock { $0.currentApp }
            case .notInFront: continue
            }
        }
        return nil
    }

    /// Off, in standby or unreachable: no app, and no request about one.
    func forgetCurrentApp() {
        state.withLock {
            $0.appWatch.poweredOff()
            $0.currentApp = nil
        }
    }

    /// The bridge launched `appID`: the next poll asks about it first.
    func noteLaunched(_ appID: String) {
        state.withLock { $0.appWatch.launched(appID) }
    }

    private enum Check {
        case inFront(TVApp)
        case notInFront
        case failed
    }

    /// One REST request about `appID`, recorded in the watch. The name reported is the one
    /// on the app list (the `app` select's option), else the TV's.
    private func check(_ appID: String) async -> Check {
        let status: SamsungAppStatus?
        do {
            status = try await http.applicationStatus(appID)
        } catch {
            logger.debug("REST app status of \(appID) failed: \(error.message)")
            return .failed
        }
        return state.withLock { state -> Check in
            guard let status else {
                state.appWatch.unanswerable(appID)
                if state.currentApp?.id == appID { state.currentApp = nil }
                return .notInFront
            }
            guard status.inFront else {
                state.appWatch.notInFront(appID)
                if state.currentApp?.id == appID { state.currentApp = nil }
                return .notInFront
            }
            state.appWatch.seen(appID)
            let listed = state.description.apps.first { $0.id == appID }
            let app = TVApp(id: appID, name: listed?.name ?? status.name ?? appID)
            if listed == nil { Self.addSeenApp(app, to: &state) }
            state.currentApp = app
            return .inFront(app)
        }
    }

    /// An app the TV confirmed installed and in front but missing from the list (launched
    /// by id): listed from now on, so the `app` select can show it.
    private static func addSeenApp(_ app: TVApp, to state: inout State) {
        state.seenApps.removeAll { $0.id == app.id }
        state.seenApps.append(app)
        if state.seenApps.count > 8 { state.seenApps.removeFirst() }
        setApps(state.description.apps + [app], seen: [], in: &state.description)
    }
}
