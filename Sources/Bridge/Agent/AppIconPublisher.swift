import Drivers
import Net
import TVModel

/// The one owner of what one TV's `app_icon` topic holds: the `app_icon` image entity (README ›
/// MQTT topics and commands), the current app's icon, fetched once per app from the driver,
/// cached (`AppIconCache`), published as raw bytes, retained, on `<base>/<tv>/app_icon`; cleared
/// (an empty retained payload) when the TV is off or unreachable, or shows something without an
/// icon (an input, the home screen). What the topic holds is recorded here only (`shown`);
/// `BridgePublisher` keeps the bytes it sent, to send again after a reconnect, as it does for
/// every retained topic.
actor AppIconPublisher {
    enum Shown: Equatable {
        /// At start: a previous run may have left an icon retained, so the first "none" clears it.
        case unknown
        case cleared
        case icon(appID: String)
    }

    /// An app whose icon could not be fetched (the TV did not answer) is asked again only after
    /// this, not at every poll.
    static let retryAfterFailure = Duration.seconds(60)
    /// Icons published per TV per `iconWindow` at most: a TV cycling through more apps than the
    /// cache holds must not fill the broker with retained pictures as fast as it answers. Past
    /// it the topic is cleared, and the next poll after the window shows the icon.
    static let iconsPerWindow = 10
    static let iconWindow = Duration.seconds(60)

    private let id: TVID
    private let driver: any TVDriver
    private let context: BridgeContext
    private(set) var shown = Shown.unknown
    private var cache = AppIconCache()
    /// The app whose icon the state calls for (nil: the TV is off or unreachable).
    private var wanted: String?
    /// The fetch under way, and for which app.
    private var fetch: (appID: String, task: Task<Void, Never>)?
    private var retryAt: [String: ContinuousClock.Instant] = [:]
    private var published = SourceRateLimiter(limit: iconsPerWindow, window: iconWindow, maxSources: 1)

    init(id: TVID, driver: any TVDriver, context: BridgeContext) {
        self.id = id
        self.driver = driver
        self.context = context
    }

    /// Shows the icon `snapshot` calls for: at once when it is cached, else once it is fetched
    /// (the topic is cleared meanwhile, since the previous app's icon would be wrong).
    func show(for snapshot: TVSnapshot) async {
        let wanted =
            snapshot.reachable && snapshot.power == true
            ? snapshot.appID.flatMap { $0.isEmpty ? nil : $0 } : nil
        self.wanted = wanted
        guard let wanted else {
            await showIcon(nil, of: nil)
            return
        }
        if shown == .icon(appID: wanted) { return }
        if let cached = cache.lookup(wanted) {
            await showIcon(cached, of: wanted)
            return
        }
        await showIcon(nil, of: nil)
        if let retryAt = retryAt[wanted], LoopClock.current.now < retryAt { return }
        guard fetch?.appID != wanted else { return }
        fetch?.task.cancel()
        let driver = self.driver
        fetch = (wanted, Task { await self.iconFetched(wanted, await Self.fetchIcon(wanted, from: driver)) })
    }

    private static func fetchIcon(_ appID: String, from driver: any TVDriver) async -> Result<
        AppIcon?, DriverError
    > {
        do {
            return .success(try await driver.appIcon(appID))
        } catch {
            return .failure(error)
        }
    }

    private func iconFetched(_ appID: String, _ result: Result<AppIcon?, DriverError>) async {
        if fetch?.appID == appID { fetch = nil }
        switch result {
        case .failure(let error):
            context.logger.debug(
                "app icon not fetched", [("tv", id.rawValue), ("app", appID), ("error", error.message)])
            retryAt[appID] = LoopClock.current.now + Self.retryAfterFailure
            if retryAt.count > AppIconCache.maxEntries { retryAt.removeAll() }
        case .success(let icon):
            retryAt[appID] = nil
            cache.store(icon, for: appID)
            if wanted == appID { await showIcon(icon, of: appID) }
        }
    }

    /// Publishes `icon` (of `appID`), or clears the topic when there is none; only on change.
    private func showIcon(_ icon: AppIcon?, of appID: String?) async {
        let topic = context.topics.appIcon(id)
        if let icon, let appID {
            guard shown != .icon(appID: appID) else { return }
            guard published.allow("icon", now: LoopClock.current.now) else {
                context.logger.debug(
                    "app icon held back: \(Self.iconsPerWindow) published in the last minute",
                    [("tv", id.rawValue), ("app", appID)])
                await showIcon(nil, of: nil)
                return
            }
            shown = .icon(appID: appID)
            await context.publisher.replaceRetained(topic, icon.bytes, category: .state)
        } else {
            guard shown != .cleared else { return }
            shown = .cleared
            await context.publisher.clearRetained(topic)
        }
    }
}
