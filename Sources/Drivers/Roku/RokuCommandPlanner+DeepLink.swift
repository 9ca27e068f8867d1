import Support
import TVModel

/// What only a Roku takes in a deep link and a search (ECP reference, "launch" and "search"):
/// the values the bridge's limits leave to the TV's planner.
extension RokuCommandPlanner {
    /// The media types a deep link (`launch`) may name.
    public static let deepLinkMediaTypes = [
        "series", "season", "episode", "movie", "shortFormVideo", "tvSpecial", "special", "live",
    ]
    /// The `type` values `search/browse` takes.
    public static let searchTypes = ["movie", "tv-show", "person", "channel", "game"]

    static func checkMediaType(_ mediaType: String?) throws(CommandRejection) {
        guard let mediaType, !deepLinkMediaTypes.contains(mediaType) else { return }
        throw CommandRejection(
            "launch.mediaType: expected one of \(deepLinkMediaTypes.joined(separator: ", ")), got '\(printable(mediaType))'"
        )
    }

    static func checkSearch(_ request: SearchRequest) throws(CommandRejection) {
        guard let type = request.type, !searchTypes.contains(type) else { return }
        throw CommandRejection("search.type: expected one of \(searchTypes.joined(separator: ", "))")
    }
}
