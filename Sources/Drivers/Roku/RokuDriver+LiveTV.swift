import Net
import TVModel
import Wire

/// What the driver knows of a Roku TV's tuner: its channel list and when it was read.
struct RokuTunerState {
    /// nil until read (or on a Roku without a tuner).
    var channels: [RokuTVChannel]?
    /// When the list was last asked for, answered or not (so a TV that refuses it is not
    /// asked at every poll).
    var askedAt: ContinuousClock.Instant?
    /// The foreground app at the last poll, to notice a change of input.
    var foreground: String?

    /// The list is read at start, again on a change of input (a scan is done on the tuner, so
    /// coming back to it may bring new channels) but not more than once a minute, and every
    /// 15 minutes otherwise.
    static let refreshInterval: Duration = .seconds(15 * 60)
    static let inputChangeInterval: Duration = .seconds(60)

    /// Whether to ask now; records the foreground seen either way.
    mutating func isDue(foreground now: String?, at instant: ContinuousClock.Instant) -> Bool {
        let inputChanged = now != foreground && (now?.hasPrefix("tvinput.") ?? false)
        foreground = now
        guard let askedAt else { return true }
        let age = instant - askedAt
        return age >= Self.refreshInterval || (inputChanged && age >= Self.inputChangeInterval)
    }
}

extension RokuDriver {
    /// `/query/tv-active-channel` over HTTP ECP (ECP-2 has no such query): the channel and
    /// program while the tuner is in front. A failure leaves the channel out (unknown), and a
    /// 403 is Limited mode (Roku OS 14.1+ answers these queries only with "Control by mobile
    /// apps" set to Enabled).
    func readActiveChannel(into snapshot: inout TVSnapshot) async {
        do {
            let active = try RokuActiveChannel.parse(try await ecp.query("/query/tv-active-channel"))
            active.apply(to: &snapshot, list: state.withLock { $0.tuner.channels ?? [] })
        } catch {
            snapshot.clearChannel()
            noteLimitedMode(error)
            logger.debug("tv-active-channel failed: \(error.message)")
        }
    }

    /// `/query/tv-channels` on a Roku TV with a tuner, when `RokuTunerState.isDue`.
    func refreshChannelsIfDue(info: RokuDeviceInfo, foreground: String?) async {
        let hasTuner = state.withLock { state in
            RokuDescriptionBuilder.capabilities(info, apps: state.apps).channels
        }
        guard hasTuner,
            state.withLock({ $0.tuner.isDue(foreground: foreground, at: LoopClock.current.now) })
        else { return }
        state.withLock { $0.tuner.askedAt = LoopClock.current.now }
        do {
            let channels = try RokuChannelList.parse(try await ecp.query("/query/tv-channels"))
            state.withLock { $0.tuner.channels = channels }
        } catch {
            noteLimitedMode(error)
            logger.debug("tv-channels failed: \(error.message)")
        }
    }

    /// `launch/tvinput.dtv?ch=7.1` over HTTP ECP, which documents the `ch` parameter (ECP-2's
    /// launch carries deep-link parameters of its own shape), then the channel is read again.
    func tune(_ number: String) async throws(DriverError) {
        try await ecp.command(
            "/launch/\(RokuActiveChannel.tunerAppID)?" + PercentEncoding.buildQuery([("ch", number)]))
    }
}
