/// Which app a Samsung TV shows, found without a "foreground app" query (Tizen has none):
/// `GET /api/v2/applications/<id>` says per app whether it is `running` and `visible`.
///
/// Each poll while the TV is on asks about at most `requestsPerPoll` apps:
/// - the candidate first (the app the bridge launched, or the one last seen in front); while
///   it stays `running && visible` it is the current app and nothing else is asked (only one
///   app is in front);
/// - otherwise the remaining requests scan the other known apps round-robin, recently seen
///   ones first (the scan restarts with them whenever the candidate leaves the screen).
///
/// So an app started with the TV's own remote is found within ⌊N / 2⌋ + 1 polls (N: the apps
/// on the list; 2 per poll with nothing in front, 1 in the poll where the candidate leaves),
/// going back to a recently seen app usually at the first, and an app the bridge launched at
/// the next poll. Apps whose REST status answers 404 are skipped from then on (the first
/// round may take a poll longer): they are never detected.
public struct SamsungAppWatch: Equatable, Sendable {
    /// REST app requests per poll, at most: the candidate's check plus the scan.
    public static let requestsPerPoll = 2
    /// How many recently seen apps the scan tries first.
    public static let recentLimit = 3

    /// The app believed in front: checked first at every poll.
    public private(set) var candidate: String?
    /// Apps seen in front (or launched), most recent first.
    public private(set) var recent: [String] = []
    /// Apps whose REST status answered 404: never asked again.
    public private(set) var unanswerable: Set<String> = []
    private var cursor = 0

    public init() {}

    /// The bridge launched `id`: the next poll checks it first.
    public mutating func launched(_ id: String) {
        candidate = id
        unanswerable.remove(id)
        remember(id)
    }

    /// `id` answered `running && visible`.
    public mutating func seen(_ id: String) {
        if candidate != id { cursor = 0 }
        candidate = id
        remember(id)
    }

    /// `id` is not in front. When it was the candidate, the scan restarts, recent apps first.
    public mutating func notInFront(_ id: String) {
        guard candidate == id else { return }
        candidate = nil
        cursor = 0
    }

    /// `id` answered 404 (not installed, or no REST status): stop asking about it.
    public mutating func unanswerable(_ id: String) {
        unanswerable.insert(id)
        recent.removeAll { $0 == id }
        if candidate == id { candidate = nil }
    }

    /// The TV is off, in standby or unreachable: nothing is in front. The candidate stays
    /// among the recent apps, so it is asked about first once the TV is back on.
    public mutating func poweredOff() {
        candidate = nil
        cursor = 0
    }

    /// The scan order: recent apps first, then the known ones in list order.
    public func scanOrder(known: [String]) -> [String] {
        var order = recent.filter { known.contains($0) }
        for id in known where !order.contains(id) && !unanswerable.contains(id) { order.append(id) }
        return order
    }

    /// The next app to scan, skipping `asked` (already checked this poll); advances the cursor.
    public mutating func nextScan(known: [String], asked: Set<String>) -> String? {
        let order = scanOrder(known: known)
        guard !order.isEmpty else { return nil }
        for _ in 0..<order.count {
            let id = order[cursor % order.count]
            cursor = (cursor % order.count) + 1
            if !asked.contains(id) { return id }
        }
        return nil
    }

    private mutating func remember(_ id: String) {
        recent.removeAll { $0 == id }
        recent.insert(id, at: 0)
        if recent.count > Self.recentLimit { recent.removeLast(recent.count - Self.recentLimit) }
    }
}
