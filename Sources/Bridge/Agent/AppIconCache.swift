import TVModel

/// The icons one TV gave, by app id, so each app's icon is fetched once, and the
/// apps it has none for. Bounded: at most `maxEntries`, the least recently used go first;
/// each icon is at most `AppIcon.maxBytes`, so one TV holds at most 16 × 256 KiB.
struct AppIconCache {
    static let maxEntries = 16

    /// nil value: the TV has no icon for this app.
    private var entries: [String: AppIcon?] = [:]
    /// Least recently used first.
    private var order: [String] = []

    /// `.some(nil)`: known to have no icon; nil: not asked yet.
    mutating func lookup(_ appID: String) -> AppIcon?? {
        guard let entry = entries[appID] else { return nil }
        touch(appID)
        return .some(entry)
    }

    mutating func store(_ icon: AppIcon?, for appID: String) {
        entries[appID] = .some(icon)
        touch(appID)
        while order.count > Self.maxEntries {
            entries.removeValue(forKey: order.removeFirst())
        }
    }

    var count: Int { entries.count }

    private mutating func touch(_ appID: String) {
        order.removeAll { $0 == appID }
        order.append(appID)
    }
}
