import TVModel
import Wire

/// App icons: `GET /query/icon/<app id>` answers the picture with its `Content-Type`
/// (ECP reference, "query/icon"). A 404 (the home screen, most inputs) means no icon.
extension RokuDriver {
    public func appIcon(_ appID: String) async throws(DriverError) -> AppIcon? {
        guard RokuCommandPlanner.isAppID(appID) else { return nil }
        let path = "/query/icon/" + PercentEncoding.encodePathSegment(appID)
        let response: HTTPResponse
        do {
            response = try await ecp.http.request("GET", path)
        } catch {
            throw RokuECP.map(error, path: path)
        }
        if response.status == 404 { return nil }
        guard response.isSuccess else { throw RokuECP.map(response, method: "GET", path: path) }
        guard let icon = AppIcon.decode(response.body, declaredType: response.headers["Content-Type"]) else {
            logger.debug(
                "the icon of \(appID) is not a picture we publish (\(response.body.count) bytes, \(response.headers["Content-Type"] ?? "no type"))"
            )
            return nil
        }
        return icon
    }
}
