import Drivers
import Net
import TVModel

/// What the `app_icon` topic of one TV holds, and the icons already fetched.
struct AppIconState {
    enum Shown: Equatable {
        /// At start: a previous run may have left an icon retained, so the first "none" clears it.
        case unknown
        case cleared
        case icon(appID: String)
    }

    var cache = AppIconCache()
    var shown = Shown.unknown
    /// The app whose icon the state calls for (nil: the TV is off or unreachable).
    var wanted: String?
    /// The fetch under way, and for which app.
    var fetching: String?
    var fetch: Task<Void, Never>?
    /// An app whose icon could not be fetched (the TV did not answer) is asked again only
    /// after this, not at every poll.
    var retryAt: [String: ContinuousClock.Instant] = [:]

    static let retryAfterFailure = Duration.seconds(60)

    /// Icons published per TV per `iconWindow` at most: a TV cycling through more apps than
    /// the cache holds must not fill the broker with retained pictures as fast as it answers.
    /// Past it the topic is cleared, and the next poll after the window shows the icon.
    static let iconsPerWindow = 10
    static let iconWindow = Duration.seconds(60)
    var published = SourceRateLimiter(limit: iconsPerWindow, window: iconWindow, maxSources: 1)
}

/// The `app_icon` image entity (README › MQTT topics and commands): the current app's icon, fetched
/// once per app from the driver, cached (`AppIconCache`), published as raw bytes, retained, on
/// `<base>/<tv>/app_icon`; cleared (an empty retained payload) when the TV is off or unreachable,
/// or shows something without an icon (an input, the home screen).
extension TVAgent {
    func showAppIcon(for snapshot: TVSnapshot) async {
        guard description.capabilities.appIcons else { return }
        let wanted =
            snapshot.reachable && snapshot.power == true
            ? snapshot.appID.flatMap { $0.isEmpty ? nil : $0 } : nil
        appIcon.wanted = wanted
        guard let wanted else {
            await showIcon(nil, of: nil)
            return
        }
        if appIcon.shown == .icon(appID: wanted) { return }
        if let cached = appIcon.cache.lookup(wanted) {
            await showIcon(cached, of: wanted)
            return
        }
        // Until the icon is here, the previous app's icon would be wrong.
        await showIcon(nil, of: nil)
        if let retryAt = appIcon.retryAt[wanted], LoopClock.current.now < retryAt { return }
        guard appIcon.fetching != wanted else { return }
        appIcon.fetch?.cancel()
        appIcon.fetching = wanted
        let driver = self.driver
        appIcon.fetch = Task {
            await self.iconFetched(wanted, await Self.fetchIcon(wanted, from: driver))
        }
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
        if appIcon.fetching == appID {
            appIcon.fetching = nil
            appIcon.fetch = nil
        }
        switch result {
        case .failure(let error):
            context.logger.debug(
                "app icon not fetched", [("tv", id.rawValue), ("app", appID), ("error", error.message)])
            appIcon.retryAt[appID] = LoopClock.current.now + AppIconState.retryAfterFailure
            if appIcon.retryAt.count > AppIconCache.maxEntries { appIcon.retryAt.removeAll() }
        case .success(let icon):
            appIcon.retryAt[appID] = nil
            appIcon.cache.store(icon, for: appID)
            if appIcon.wanted == appID { await showIcon(icon, of: appID) }
        }
    }

    /// Publishes `icon` (of `appID`), or clears the topic when there is none; only on change.
    private func showIcon(_ icon: AppIcon?, of appID: String?) async {
        let topic = context.topics.appIcon(id)
        if let icon, let appID {
            guard appIcon.shown != .icon(appID: appID) else { return }
            guard appIcon.published.allow("icon", now: LoopClock.current.now) else {
                context.logger.debug(
                    "app icon held back: \(AppIconState.iconsPerWindow) published in the last minute",
                    [("tv", id.rawValue), ("app", appID)])
                await showIcon(nil, of: nil)
                return
            }
            appIcon.shown = .icon(appID: appID)
            await context.publisher.replaceRetained(topic, icon.bytes, category: .state)
        } else {
            guard appIcon.shown != .cleared else { return }
            appIcon.shown = .cleared
            await context.publisher.clearRetained(topic)
        }
    }
}
