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
            throw Self.map(error)
        }
        guard response.isSuccess else { throw Self.map(response, method: method, path: path) }
        return response
    }

    static func map(_ error: HTTPClientError) -> DriverError {
        switch error.kind {
        case .connect: DriverError(.unreachable, error.message)
        case .timeout: DriverError(.timeout, error.message)
        case .connectionLost: DriverError(.unreachable, error.message)
        case .malformed: DriverError(.badResponse, error.message)
        }
    }

    static func map(_ response: HTTPResponse, method: String, path: String) -> DriverError {
        let body = String(decoding: response.body.prefix(200), as: UTF8.self)
        if response.status == 403 && body.contains(limitedModeBody) {
            return DriverError(.limitedMode, limitedModeMessage)
        }
        let detail = body.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" } ? "" : body
        let trimmed = detail.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return DriverError(
            .rejected,
            "the Roku refused \(method) \(path): HTTP \(response.status)\(trimmed.isEmpty ? "" : " (\(trimmed.prefix(120)))")"
        )
    }
}
