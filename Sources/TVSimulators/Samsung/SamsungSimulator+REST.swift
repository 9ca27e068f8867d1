import Net
import Wire

/// The REST API on `portWS` (and `portWSS`): device info and applications (`/sim/state` is
/// `SimStateEndpoint`).
extension SamsungSimulator {
    func handleREST(_ request: HTTPRequest) -> SimHTTPReply {
        core.withLock { $0.httpRequests += 1 }
        return SimRouting.answer(request, simState: simStateEndpoint.answer) { segments in
            route(request, segments)
        }
    }

    private func route(_ request: HTTPRequest, _ segments: [String]) -> SimHTTPReply? {
        switch segments.count {
        case 2 where segments == ["api", "v2"]:
            guard request.method == "GET" else { return SimHTTPReply(SimResponse.methodNotAllowed) }
            let (reading, artMode) = core.withLock { ($0.state.power, $0.state.artMode) }
            var power = reading
            // A 2025 Frame says standby while it shows art.
            if options.frame, options.artFirmware == .y2025, power == .on, artMode { power = .standby }
            return SimHTTPReply(
                Self.json(
                    SamsungDocuments.device(
                        identity, host: options.host, portWS: portWS, power: power, frame: options.frame)))
        case 4 where segments[0...2] == ["api", "v2", "applications"]:
            if request.method == "GET" { core.withLock { $0.applicationStatusRequests += 1 } }
            return SimHTTPReply(application(segments[3], method: request.method))
        default:
            return nil
        }
    }

    /// `GET` describes an installed app (404 otherwise), `POST` launches it, `DELETE` closes it.
    private func application(_ id: String, method: String) -> HTTPResponse {
        guard let app = SamsungCatalog.app(id) else {
            if method == "POST" {
                record("app_launch", ["app": .string(id), "via": "rest", "refused": "not installed"])
            }
            return Self.json(["code": 404, "message": "Not Found", "status": 404], status: 404)
        }
        return core.withLock { core in
            switch method {
            case "GET":
                let running = core.state.power == .on && core.state.appID == app.id
                return Self.json(SamsungDocuments.application(app, running: running))
            case "POST":
                guard core.state.power == .on else {
                    record("app_launch", ["app": .string(id), "via": "rest", "refused": "standby"])
                    return SimResponse.plain(503, "the TV is in standby")
                }
                record("app_launch", ["app": .string(id), "name": .string(app.name), "via": "rest"])
                launch(app, &core)
                return Self.json(true)
            case "DELETE":
                if core.state.appID == app.id { core.state.appID = nil }
                return Self.json(true)
            default:
                return SimResponse.methodNotAllowed
            }
        }
    }

    func launch(_ app: SamsungCatalog.App, _ core: inout Core) {
        core.state.appID = app.id
        core.state.artMode = false
    }

    /// The state, and the tokens issued so far (`issued_tokens`: a test of a `tvsim` process
    /// checks what was saved against them).
    private var currentSimState: JSONValue {
        guard case .object(var fields) = state.json else { return state.json }
        fields["issued_tokens"] = .array(issuedTokens.map(JSONValue.string))
        return .object(fields)
    }

    private var simStateEndpoint: SimStateEndpoint {
        SimStateEndpoint(
            current: { [self] in currentSimState },
            apply: { [self] change throws(SimulatorError) in
                try core.withLock { core throws(SimulatorError) in try applyLocked(change, to: &core) }
                // Answered first: turning the TV off closes the listener this answer leaves by.
                return { [self] in syncListeners() }
            },
            json: { Self.json($0) })
    }

    static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        SimResponse.json(value, status: status, contentType: "application/json; charset=utf-8")
    }
}
