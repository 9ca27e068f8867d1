import Clients
import Wire

/// HTTP ECP requests to one Roku, with failures mapped to `DriverError` once, here.
struct RokuECP: Sendable {
    let http: HTTPClient

    /// What Roku answers (403, `text/plain`) when "Control by mobile apps" is Limited.
    static let limitedModeBody = "ECP command not allowed in Limited mode"

    static let limitedModeMessage =
        "the Roku refuses remote control (Limited mode): on the TV open Settings › System › Advanced system settings › Control by mobile apps › Network access and choose Enabled"

    init(host: String, port: UInt16, settings: DriverSettings) {
        http = HTTPClient(
            host: host, port: port, connectTimeout: settings.connectTimeout,
            requestTimeout: settings.requestTimeout)
    }

    /// `GET` a query; the body of a 2xx answer.
    func query(_ path: String) async throws(DriverError) -> [UInt8] {
        try await send("GET", path).body
    }

    /// `POST` a command with an empty body; any 2xx is success (keypresses answer 202 on
    /// some firmware).
    func command(_ path: String) async throws(DriverError) {
        _ = try await send("POST", path)
    }

    private func send(_ method: String, _ path: String) async throws(DriverError) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await http.request(method, path)
        } catch {
            throw Self.map(error, path: path)
        }
        guard response.isSuccess else { throw Self.map(response, method: method, path: path) }
        return response
    }

    static func map(_ error: HTTPClientError, path: String) -> DriverError {
        // The client's message starts with the request ("POST /keypress/Lit_a on …").
        let message = error.message.replacing(path, with: shown(path))
        return switch error.kind {
        case .connect: DriverError(.unreachable, message)
        case .timeout: DriverError(.timeout, message)
        case .connectionLost: DriverError(.unreachable, message)
        case .malformed: DriverError(.badResponse, message)
        }
    }

    /// A request path for a log line or an error: a `Lit_` key is a character of typed text (a
    /// password, a search), which goes to no log line and no `command_failed`, so it is cut.
    static func shown(_ path: String) -> String {
        path.firstRange(of: "/Lit_").map { path[..<$0.upperBound] + "…" } ?? path
    }

    static func map(_ response: HTTPResponse, method: String, path: String) -> DriverError {
        let body = String(decoding: response.body.prefix(200), as: UTF8.self)
        if response.status == 403 && body.contains(limitedModeBody) {
            return DriverError(.limitedMode, limitedModeMessage)
        }
        let kind: DriverError.Kind = response.status == 403 ? .forbidden : .rejected
        // The status only: the body might repeat a typed character, and whatever answers at
        // an address (a service a `tv/add` request aimed at) must not be read back through it.
        return DriverError(kind, "the Roku refused \(method) \(shown(path)): HTTP \(response.status)")
    }
}
