import Net
import Wire

/// The REST API on `portWS` (and `portWSS`): device info, applications, and `/sim/state`.
extension SamsungSimulator {
    func handleREST(_ request: HTTPRequest) -> SimHTTPReply {
        core.withLock { $0.httpRequests += 1 }
        let segments: [String]
        do {
            segments = try request.pathSegments
        } catch {
            return SimHTTPReply(Self.plain(400, "Bad Request: \(error)"))
        }
        switch segments.count {
        case 2 where segments == ["api", "v2"]:
            guard request.method == "GET" else { return SimHTTPReply(Self.plain(405, "Method Not Allowed")) }
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
        case 2 where segments == ["sim", "state"]:
            return simState(request)
        default:
            return SimHTTPReply(Self.plain(404, "Not Found"))
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
                    return Self.plain(503, "the TV is in standby")
                }
                record("app_launch", ["app": .string(id), "name": .string(app.name), "via": "rest"])
                launch(app, &core)
                return Self.json(true)
            case "DELETE":
                if core.state.appID == app.id { core.state.appID = nil }
                return Self.json(true)
            default:
                return Self.plain(405, "Method Not Allowed")
            }
        }
    }

    func launch(_ app: SamsungCatalog.App, _ core: inout Core) {
        core.state.appID = app.id
        core.state.artMode = false
    }

    private func simState(_ request: HTTPRequest) -> SimHTTPReply {
        switch request.method {
        case "GET":
            return SimHTTPReply(Self.json(state.json))
        case "POST":
            let change: JSONValue
            do {
                change = try JSONParser.parse(request.body)
            } catch {
                return SimHTTPReply(Self.plain(400, "invalid JSON: \(error)"))
            }
            do {
                try core.withLock { core throws(SimulatorError) in try applyLocked(change, to: &core) }
                // Answered first: turning the TV off closes the listener this answer leaves by.
                return SimHTTPReply(Self.json(state.json)) { [self] in syncListeners() }
            } catch {
                return SimHTTPReply(Self.plain(400, error.message))
            }
        default:
            return SimHTTPReply(Self.plain(405, "Method Not Allowed"))
        }
    }

    static func plain(_ status: Int, _ body: String) -> HTTPResponse {
        var response = HTTPResponse(status: status, body: Array(body.utf8))
        if !body.isEmpty {
            response.headers.set(name: "Content-Type", value: "text/plain; charset=\"utf-8\"")
        }
        return response
    }

    static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        var response = HTTPResponse(status: status, body: value.serializedBytes())
        response.headers.set(name: "Content-Type", value: "application/json; charset=utf-8")
        return response
    }
}
