import Clients
import Net
import Support
import Synchronization
import TVModel

/// A Roku (TV, stick, box) over HTTP ECP on port 8060 (Roku/README.md › HTTP ECP).
///
/// The bridge polls it (`poll`) and sends it commands (`plan`, then `execute`) from one
/// task each; the state they share sits behind a mutex, held only for copying values in and
/// out, never across a request.
public final class RokuDriver: TVDriver {
    struct State {
        var description: TVDescription
        /// Installed apps and inputs as last read (`/query/apps`), or as remembered.
        var apps: [RokuApp]
        /// The app list was read from the device in this run.
        var appsLoaded = false
        /// Unknown until a query that Limited mode refuses has been answered either way.
        var limitedMode: Bool?
        /// A key failed with a bare 403 under this `ecp-setting-mode` (`enabled`, `default`),
        /// over HTTP and with no ECP-2 to carry it (`RokuDriver+Refusal.swift`); nil again
        /// once the setting changes or a key goes through over HTTP.
        var keysRefusedUnder: String?
        /// `ecp-setting-mode` as last read.
        var ecpSettingMode: String?
        /// device-info was answered in this run: a silence after it is worth explaining.
        var answered = false
        /// ECP-2 (see `RokuDriver+ECP2.swift`).
        var link = ECP2Link()
        /// The tuner's channels and when they were read (see `RokuDriver+LiveTV.swift`).
        var tuner = RokuTunerState()
    }

    public let kind = TVKind.roku
    public let events = DriverEvents()
    let state: Mutex<State>
    let ecp: RokuECP
    let settings: DriverSettings
    /// The `roku` section: whether ECP-2 is used.
    let roku: RokuSettings
    let logger: Logger
    /// Signalled when the ECP-2 link comes up or stops trying, for a command waiting on it.
    let linkChanged = Wakeup()

    public init(description: TVDescription, settings: DriverSettings, roku: RokuSettings) {
        // Remembered apps carry no type: inputs are recognised by their `tvinput.` ids.
        let apps = description.apps.map {
            RokuApp(id: $0.id, name: $0.name, type: $0.id.hasPrefix("tvinput.") ? "tvin" : "appl")
        }
        state = Mutex(State(description: description, apps: apps))
        ecp = RokuECP(
            host: description.identity.host, port: description.identity.port, settings: settings)
        self.settings = settings
        self.roku = roku
        logger = settings.logger.labeled("roku").with("tv", description.identity.id.rawValue)
    }

    public var description: TVDescription {
        get async { state.withLock { $0.description } }
    }

    /// What `plan` checks commands against.
    var planner: RokuCommandPlanner {
        state.withLock {
            RokuCommandPlanner(capabilities: $0.description.capabilities, apps: $0.apps, channels: $0.tuner.channels)
        }
    }

    /// Inputs (`tvinput.*`) and the home screen are never on `/query/apps`.
    public func appListShouldContain(_ appID: String) -> Bool {
        !appID.hasPrefix("tvinput") && appID != RokuActiveApp.homeID
    }

    public var limitedModeMessage: String { RokuECP.limitedModeMessage }

    public func updateHost(_ host: String) async {
        state.withLock { $0.description.identity.host = host }
        await ecp.http.updateHost(host)
    }

    public func shutdown() async {
        await stopECP2()
        await ecp.http.closeIdle()
        events.finish()
    }

    // MARK: polling

    /// device-info always; the app list on `full` or while unknown; active-app and
    /// media-player only while the TV is on (media-player not for TV inputs, which have no
    /// player). Never throws: a TV that does not answer device-info is unreachable.
    public func poll(full: Bool) async -> TVSnapshot {
        startECP2IfNeeded()
        let (generation, session) = state.withLock { ($0.link.generation, $0.link.session) }
        let info: RokuDeviceInfo
        do {
            info = try RokuDeviceInfo.parse(try await ecp.query("/query/device-info"))
        } catch {
            logger.debug("device-info failed: \(error.message)")
            var unreachable = TVSnapshot.unreachable
            if state.withLock({ $0.answered }) && RokuECPRefusal.isSilence(error) {
                unreachable.unreachableHint = RokuECPRefusal.silenceHint
            }
            return unreachable
        }
        noteSettings(info)
        if full || !state.withLock({ $0.appsLoaded }) { await refreshApps() }
        var snapshot = TVSnapshot(
            reachable: true, power: info.isPoweredOn, powerMode: info.powerMode,
            controlPath: session == nil ? .ecp : .ecp2)
        snapshot.declared[RokuECPSettingMode.sensor.key] = info.ecpSettingMode
        if info.isPoweredOn { await readForeground(into: &snapshot, session: session) }
        await refreshChannelsIfDue(info: info, foreground: snapshot.appID)
        if session != nil { await checkLimitedMode() }
        let (polled, sessionNow, software) = state.withLock { state in
            var description = state.description
            let softwareBefore = description.identity.softwareVersion
            RokuDescriptionBuilder.update(&description.identity, from: info)
            description.capabilities = RokuDescriptionBuilder.capabilities(info, apps: state.apps)
            if state.link.reportsVolume {
                description.capabilities.volumeLevel = true
                description.capabilities.muteState = true
            }
            description.capabilities.channelList = RokuChannelList.options(state.tuner.channels ?? [])
            description.apps = state.apps.map { TVApp(id: $0.id, name: $0.name) }
            state.description = description
            state.limit(&snapshot)
            let software = (softwareBefore, description.identity.softwareVersion)
            return (state.link.merge(polled: snapshot, since: generation), state.link.session, software)
        }
        if let before = software.0, let now = software.1, before != now {
            logger.info(
                "the Roku's software changed from \(before) to \(now); an update may have changed Control by mobile apps"
            )
        }
        // The session came up during this poll, whose foreground came over HTTP (in Limited
        // mode without media state): ask the session too.
        if session == nil, let sessionNow { scheduleRefresh(sessionNow) }
        return polled
    }

    private func refreshApps() async {
        do {
            let apps = try RokuApp.parseList(try await ecp.query("/query/apps"))
            state.withLock {
                $0.apps = apps
                $0.appsLoaded = true
            }
        } catch {
            logger.debug("app list failed: \(error.message)")
        }
    }

    /// active-app, then media-player: both keep working in Limited mode except media-player,
    /// whose 403 is how Limited mode is noticed while polling. Over the ECP-2 session when it
    /// is up (Limited mode does not restrict it).
    func readForeground(into snapshot: inout TVSnapshot, session: RokuECP2Session?) async {
        func query(_ name: String) async throws(DriverError) -> [UInt8] {
            if let session { return try await session.query("query-\(name)") }
            return try await ecp.query("/query/\(name)")
        }
        do {
            let active = try RokuActiveApp.parse(try await query("active-app"))
            snapshot.app = active.name
            snapshot.appID = active.id
            if active.isInput {
                snapshot.input =
                    state.withLock { $0.apps.first { $0.id == active.id }?.name } ?? active.name
                if active.id == RokuActiveChannel.tunerAppID { await readActiveChannel(into: &snapshot) }
                return
            }
        } catch {
            noteLimitedMode(error)
            logger.debug("active-app failed: \(error.message)")
        }
        do {
            let player = try RokuMediaPlayer.parse(try await query("media-player"))
            snapshot.mediaState = player.mediaState
            snapshot.position = player.position
            snapshot.duration = player.duration
            snapshot.live = player.mediaState == .idle ? nil : player.isLive
            if session == nil { state.withLock { $0.limitedMode = false } }
        } catch {
            noteLimitedMode(error)
            logger.debug("media-player failed: \(error.message)")
        }
    }

    /// With the session up, foreground queries do not touch HTTP, so whether HTTP ECP is
    /// limited is asked separately, while it is unknown or limited (to notice the user
    /// enabling "Control by mobile apps").
    private func checkLimitedMode() async {
        guard state.withLock({ $0.limitedMode != false }) else { return }
        do {
            _ = try await ecp.query("/query/media-player")
            state.withLock { $0.limitedMode = false }
        } catch {
            noteLimitedMode(error)
        }
    }

    func noteLimitedMode(_ error: DriverError) {
        guard error.kind == .limitedMode else { return }
        state.withLock { $0.limitedMode = true }
    }
}
