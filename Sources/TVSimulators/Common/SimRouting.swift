import Wire

/// The routing every simulated TV's HTTP port shares: the path split into segments (400 when
/// it cannot be), `/sim/state` to the back door, everything else to the vendor's own routes,
/// and 404 for what neither knows.
enum SimRouting {
    /// - Parameters:
    ///   - simState: answers `/sim/state` (see `SimStateEndpoint`); nil where the port has none.
    ///   - routes: the vendor's own routes, by path segment; nil for a path it does not serve.
    static func answer(
        _ request: HTTPRequest, simState: ((HTTPRequest) -> SimHTTPReply)?,
        routes: ([String]) -> SimHTTPReply?
    ) -> SimHTTPReply {
        let segments: [String]
        do {
            segments = try request.pathSegments
        } catch {
            return SimHTTPReply(SimResponse.plain(400, "Bad Request: \(error)"))
        }
        if let simState, segments == ["sim", "state"] { return simState(request) }
        return routes(segments) ?? SimHTTPReply(SimResponse.notFound)
    }
}
