import TVModel
import Wire

/// `POST /search/browse` (ECP reference, "search"): opens the Roku search screen with the
/// keyword; `type` narrows the results, `provider` prefers one channel, `launch=true` starts
/// the first match in it. Every value is percent-encoded into the query.
enum RokuSearch {
    static func path(_ request: SearchRequest) -> String {
        var items: [(String, String)] = [("keyword", request.keyword)]
        if let type = request.type { items.append(("type", type)) }
        if let provider = request.provider { items.append(("provider", provider)) }
        if let launch = request.launch { items.append(("launch", launch ? "true" : "false")) }
        return "/search/browse?" + PercentEncoding.buildQuery(items)
    }
}
