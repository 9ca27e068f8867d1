import Net
import Wire

/// Routing of HTTP requests: ECP queries and commands (`/sim/state` is `SimStateEndpoint`).
extension RokuSimulator {
    static let limitedBody = "ECP command not allowed in Limited mode."

    func handle(_ request: HTTPRequest, from peer: SocketAddress) -> SimHTTPReply {
        core.withLock { $0.httpRequests += 1 }
        return SimRouting.answer(request, simState: simStateEndpoint.answer) { segments in
            route(request, segments)
        }
    }

    private func route(_ request: HTTPRequest, _ segments: [String]) -> SimHTTPReply? {
        let method = request.method
        switch (segments.first ?? "", segments.count) {
        case ("", 0):
            return query(method) { core in RokuDocuments.root(identity, kind: kind) }
        case ("query", 2):
            return answerQuery(segments[1], method: method)
        case ("query", 3) where segments[1] == "icon":
            return answerIcon(segments[2], method: method)
        case ("search", 2) where segments[1] == "browse":
            guard method == "POST" else { return SimHTTPReply(SimResponse.methodNotAllowed) }
            return SimHTTPReply(search((try? request.queryItems) ?? []))
        case ("keypress", 2), ("keydown", 2), ("keyup", 2):
            guard method == "POST" else { return SimHTTPReply(SimResponse.methodNotAllowed) }
            let raw = Self.rawSegment(request, at: 1)
            return SimHTTPReply(key(segments[1], raw: raw, kind: segments[0]))
        case ("launch", 2):
            guard method == "POST" else { return SimHTTPReply(SimResponse.methodNotAllowed) }
            let items = (try? request.queryItems) ?? []
            return SimHTTPReply(launch(segments[1], parameters: items))
        default:
            return nil
        }
    }

    private func answerQuery(_ name: String, method: String) -> SimHTTPReply {
        guard method == "GET" else { return SimHTTPReply(SimResponse.methodNotAllowed) }
        if RokuTuner.limitedQueries.contains(name) && core.withLock({ $0.state.limited }) {
            // Polls are not commands: refused queries are not logged (a poller would flood the log).
            return SimHTTPReply(SimResponse.plain(403, Self.limitedBody))
        }
        guard let document = document(name) else { return SimHTTPReply(SimResponse.notFound) }
        return SimHTTPReply(SimResponse.xml(document))
    }

    /// The XML of `/query/<name>`, built from the state under the lock (HTTP and ECP-2 alike);
    /// nil for an unknown query.
    func document(_ name: String) -> String? {
        core.withLock { core in
            switch name {
            case "device-info":
                let uptime = Int((ContinuousClock.now - started).components.seconds) + 264_789
                return RokuDocuments.deviceInfo(identity, kind: kind, state: core.state, uptime: uptime)
            case "apps":
                return RokuDocuments.apps(kind: kind)
            case "active-app":
                let app = RokuCatalog.app(core.state.appID, kind: kind) ?? RokuCatalog.home
                return RokuDocuments.activeApp(app, screensaver: core.state.screensaver)
            case "tv-channels" where kind == .tv:
                return RokuTuner.channelList()
            case "tv-active-channel" where kind == .tv:
                return RokuTuner.activeChannel(core.state)
            case "media-player":
                let state = core.snapshot(at: .now)
                let app = state.power == .on ? RokuCatalog.app(state.appID, kind: kind) : nil
                return RokuDocuments.mediaPlayer(state, app: app)
            default:
                return nil
            }
        }
    }

    /// A GET answered with an XML document built from the state under the lock.
    private func query(_ method: String, _ build: (Core) -> String) -> SimHTTPReply {
        guard method == "GET" else { return SimHTTPReply(SimResponse.methodNotAllowed) }
        let document = core.withLock { build($0) }
        return SimHTTPReply(SimResponse.xml(document))
    }

    private var simStateEndpoint: SimStateEndpoint {
        SimStateEndpoint(current: { [self] in state.json }) { [self] change throws(SimulatorError) in
            let effect = try core.withLock { core throws(SimulatorError) in try applyLocked(change, to: &core) }
            return { [self] in perform(effect) }
        }
    }

    /// The path segment as sent, still percent-encoded (`Lit_%E2%82%AC`), for the command log.
    static func rawSegment(_ request: HTTPRequest, at index: Int) -> String {
        let parts = request.path.split(separator: "/")
        return parts.count > index ? String(parts[index]) : ""
    }
}
