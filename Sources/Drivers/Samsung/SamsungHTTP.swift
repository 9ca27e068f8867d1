import Clients
import Wire

/// HTTP to one Samsung TV: the REST API on 8001 and the UPnP renderer on 9197, with failures
/// mapped to `DriverError` once, here. Neither carries the token.
struct SamsungHTTP: Sendable {
    let rest: HTTPClient
    let upnp: HTTPClient

    init(host: String, restPort: UInt16, upnpPort: UInt16, settings: DriverSettings) {
        rest = HTTPClient(
            host: host, port: restPort, connectTimeout: settings.connectTimeout,
            requestTimeout: settings.requestTimeout)
        upnp = HTTPClient(
            host: host, port: upnpPort, connectTimeout: settings.connectTimeout,
            requestTimeout: settings.requestTimeout)
    }

    /// `GET /api/v2/`, parsed.
    func deviceInfo() async throws(DriverError) -> SamsungDeviceInfo {
        let response = try await send(rest, "GET", "/api/v2/", what: "the TV's REST API")
        guard response.isSuccess else { throw Self.refused(response, "GET /api/v2/") }
        return try SamsungDeviceInfo.parse(response.body)
    }

    /// `GET /api/v2/applications/<id>`: true on 200 (installed), false on 404.
    func appInstalled(_ appID: String) async throws(DriverError) -> Bool {
        let path = Self.applicationPath(appID)
        let response = try await send(rest, "GET", path, what: "the TV's REST API")
        if response.isSuccess { return true }
        if response.status == 404 { return false }
        throw Self.refused(response, "GET \(path)")
    }

    /// `GET /api/v2/applications/<id>`, parsed: nil on 404 (not installed, or no REST status).
    func applicationStatus(_ appID: String) async throws(DriverError) -> SamsungAppStatus? {
        let path = Self.applicationPath(appID)
        let response = try await send(rest, "GET", path, what: "the TV's REST API")
        if response.status == 404 { return nil }
        guard response.isSuccess else { throw Self.refused(response, "GET \(path)") }
        return try SamsungAppStatus.parse(response.body)
    }

    /// `POST /api/v2/applications/<id>`: launches an installed app.
    func launch(_ appID: String) async throws(DriverError) {
        let path = Self.applicationPath(appID)
        let response = try await send(rest, "POST", path, what: "the TV's REST API")
        guard response.isSuccess else { throw Self.refused(response, "POST \(path)") }
    }

    /// One RenderingControl action. A SOAP fault (HTTP 500) becomes `.rejected`.
    func rendering(_ action: UPnPRenderingAction) async throws(DriverError) -> UPnPRenderingResult {
        let request = UPnPRenderingControl.request(action)
        let response = try await send(
            upnp, "POST", request.path, headers: HTTPHeaders(request.headers), body: request.body,
            what: "the TV's UPnP renderer")
        guard response.isSuccess || response.status == 500 else {
            throw Self.refused(response, "UPnP \(action.name)")
        }
        return try UPnPRenderingControl.parseResponse(response.body, for: action)
    }

    func updateHost(_ host: String) async {
        await rest.updateHost(host)
        await upnp.updateHost(host)
    }

    func closeIdle() async {
        await rest.closeIdle()
        await upnp.closeIdle()
    }

    static func applicationPath(_ appID: String) -> String {
        "/api/v2/applications/" + PercentEncoding.encodePathSegment(appID)
    }

    private func send(
        _ client: HTTPClient, _ method: String, _ path: String, headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [], what: String
    ) async throws(DriverError) -> HTTPResponse {
        do {
            return try await client.request(method, path, headers: headers, body: body)
        } catch {
            let message = "\(what): \(error.message)"
            switch error.kind {
            case .connect, .connectionLost: throw DriverError(.unreachable, message)
            case .timeout: throw DriverError(.timeout, message)
            case .malformed: throw DriverError(.badResponse, message)
            }
        }
    }

    private static func refused(_ response: HTTPResponse, _ request: String) -> DriverError {
        let kind: DriverError.Kind = response.status == 401 || response.status == 403 ? .unauthorized : .rejected
        return DriverError(kind, "the TV refused \(request): HTTP \(response.status)")
    }
}

/// Asks a device whether it is a Samsung TV and who it is (`GET /api/v2/`).
public enum SamsungProbe {
    /// - Parameter inputs: `samsung.inputs`, the input names the TV is described with.
    public static func describe(host: String, port: UInt16?, settings: DriverSettings, inputs: [String: [String]])
        async throws(DriverError) -> TVDescription
    {
        let port = port ?? SamsungRemoteEndpoint.plainPort
        let http = SamsungHTTP(
            host: host, restPort: port, upnpPort: UPnPRenderingControl.defaultPort, settings: settings)
        defer { Task { await http.closeIdle() } }
        let info = try await http.deviceInfo()
        var description = try info.tvDescription(host: host, port: port)
        description.capabilities.inputs = SamsungInputs(configured: inputs).names
        return description
    }
}
