import Clients
import TVModel
import Wire

extension LGDriver {
    /// The icon `listLaunchPoints` named for the app, read over HTTP on the TV's port 3000
    /// (where real sets serve `/resources/…`, TLS-only firmware included), from the TV's own
    /// host only; nil for an app without one or a picture we do not publish.
    public func appIcon(_ appID: String) async throws(DriverError) -> AppIcon? {
        let (host, path) = state.withLock { ($0.description.identity.host, $0.iconPaths[appID]) }
        guard let path else { return nil }
        let port = await connection.configuration.plainPort
        let client = HTTPClient(
            host: host, port: port, connectTimeout: settings.connectTimeout, requestTimeout: settings.requestTimeout,
            maxBodyBytes: AppIcon.maxBytes)
        defer { Task { await client.closeIdle() } }
        let response: HTTPResponse
        do {
            response = try await client.request("GET", path)
        } catch {
            throw DriverError(.unreachable, "the icon of \(appID): \(error)")
        }
        guard response.status == 200 else { return nil }
        guard let icon = AppIcon.decode(response.body, declaredType: response.headers["Content-Type"]) else {
            logger.debug("the icon of \(appID) is not a picture we publish (\(response.body.count) bytes)")
            return nil
        }
        return icon
    }
}
