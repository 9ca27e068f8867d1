import TVModel
import Wire

extension RokuDriver {
    /// Always over HTTP (ECP-2 has no search request). Roku OS 12.0 removed `search/browse`
    /// (RokuDoc, tv-protocols.md): a refusal says so, since the user cannot tell otherwise.
    func search(_ request: SearchRequest) async throws(DriverError) {
        do {
            try await ecp.command(RokuSearch.path(request))
        } catch  where error.kind == .rejected {
            throw DriverError(
                .unsupported,
                "\(error.message); Roku OS 12.0 removed search/browse, so only older firmware opens a search")
        }
    }
}

/// `POST /search/browse` (ECP reference, "search"): opens the Roku search screen with the
/// keyword; `type` narrows the results, `provider` prefers one channel, `launch=true` starts
/// the first match in it. Every value is percent-encoded into the query.
public enum RokuSearch {
    public static func path(_ request: SearchRequest) -> String {
        var items: [(String, String)] = [("keyword", request.keyword)]
        if let type = request.type { items.append(("type", type)) }
        if let provider = request.provider { items.append(("provider", provider)) }
        if let launch = request.launch { items.append(("launch", launch ? "true" : "false")) }
        return "/search/browse?" + PercentEncoding.buildQuery(items)
    }
}
