import Clients
import Support
import Synchronization
import TVModel

/// What a Samsung driver needs besides `DriverSettings`: the per-TV ports and the secrets
/// persisted in the state directory.
public struct SamsungDriverOptions: Sendable {
    /// The remote channel over TLS (`port_wss`, default 8002).
    public var securePort: UInt16
    /// The UPnP renderer (`port_upnp`, default 9197).
    public var upnpPort: UInt16
    /// The token the TV issued (state file); never logged.
    public var token: String?
    /// SHA-256 of the TV's certificate, hex (state file).
    public var certificatePin: String?
    /// How long the user has to answer the prompt on the TV.
    public var approvalTimeout: Duration
    /// How long a full poll waits for `ed.installedApp.get` before using the configured apps.
    public var appListTimeout: Duration
    /// How long the TV is reported OFF after we powered it off.
    public var powerGraceWindow: Duration
    /// Power ON from standby: how long to watch for the magic packet to wake the TV before
    /// sending KEY_POWER (which would turn an already woken TV back off).
    public var wakeSettle: Duration
    /// The remote channel is pinged after this long without a message from the TV, and dropped
    /// when nothing arrives within `keepAliveTimeout` of the ping: a TV that went away without
    /// closing (power cut, Wi-Fi gone) is then noticed, and the next command reconnects
    /// instead of being written into a dead socket. Tizen TVs answer pings (Home Assistant's
    /// samsungtvws client pings every 20 s, through the websockets library).
    public var keepAlive: Duration
    public var keepAliveTimeout: Duration
    /// Where the TV's UPnP events (volume, mute) arrive; nil: volume and mute are only polled.
    public var eventListener: GENANotifyListener?

    public init(
        securePort: UInt16 = SamsungRemoteEndpoint.securePort,
        upnpPort: UInt16 = UPnPRenderingControl.defaultPort, token: String? = nil,
        certificatePin: String? = nil, approvalTimeout: Duration = .seconds(30),
        appListTimeout: Duration = .seconds(2), powerGraceWindow: Duration = SamsungPowerGrace.defaultWindow,
        wakeSettle: Duration = .milliseconds(1500), keepAlive: Duration = .seconds(20),
        keepAliveTimeout: Duration = .seconds(10), eventListener: GENANotifyListener? = nil
    ) {
        self.eventListener = eventListener
        self.securePort = securePort
        self.upnpPort = upnpPort
        self.token = token
        self.certificatePin = certificatePin
        self.approvalTimeout = approvalTimeout
        self.appListTimeout = appListTimeout
        self.powerGraceWindow = powerGraceWindow
        self.wakeSettle = wakeSettle
        self.keepAlive = keepAlive
        self.keepAliveTimeout = keepAliveTimeout
    }
}

/// A Samsung Tizen TV (2016+) (Samsung/README.md › Protocols): identity and power from the REST API
/// on 8001, commands over the remote WebSocket (8002 with TLS and a token, 8001 as a fallback),
/// volume and mute through UPnP RenderingControl on 9197, power-on by Wake-on-LAN.
///
/// The remote channel (`SamsungChannel`) opens lazily, on the first command or `pair`, stays
/// open and reopens on demand. Polls never open it unless we hold a token: a TV that does
/// not know us would show its approval prompt at every poll.
public final class SamsungDriver: TVDriver {
    struct State {
        var description: TVDescription
        /// The last REST reading, and whether it answered.
        var info: SamsungDeviceInfo?
        var reachable = false
        var grace: SamsungPowerGrace
        /// Apps from `ed.installedApp.get` (with their launch type), when the TV answered it.
        var installed: [SamsungInstalledApp] = []
        /// The TV left `ed.installedApp.get` unanswered on an open channel: stop asking.
        var installedListUnavailable = false
        var appsLoaded = false
        /// When a poll last read volume and mute over UPnP (`renderingReconcile`).
        var renderingReadAt: ContinuousClock.Instant?
        /// Which app to ask about at the next poll (`SamsungDriver+CurrentApp.swift`).
        var appWatch = SamsungAppWatch()
        /// The app last confirmed in front.
        var currentApp: TVApp?
        /// Apps confirmed in front that the list lacked (launched by id), kept on it.
        var seenApps: [TVApp] = []
    }

    public let kind = TVKind.samsung
    public let events: DriverEvents
    let state: Mutex<State>
    let http: SamsungHTTP
    let channel: SamsungChannel
    /// The Frame's art channel and art mode (`SamsungDriver+Art.swift`).
    let art: SamsungArt
    let settings: DriverSettings
    /// The `samsung` section, with the TV's own `inputs` where its entry gives them.
    let samsung: SamsungSettings
    let options: SamsungDriverOptions
    let logger: Logger
    /// The RenderingControl event subscription (`SamsungRenderingEvents`), with a listener.
    let renderingEvents: SamsungRenderingEvents?

    public init(
        description: TVDescription, settings: DriverSettings, samsung: SamsungSettings,
        options: SamsungDriverOptions = .init()
    ) {
        let identity = description.identity
        self.settings = settings
        self.samsung = samsung
        self.options = options
        logger = settings.logger.labeled("samsung").with("tv", identity.id.rawValue)
        state = Mutex(State(description: description, grace: SamsungPowerGrace(window: options.powerGraceWindow)))
        http = SamsungHTTP(
            host: identity.host, restPort: identity.port, upnpPort: options.upnpPort, settings: settings)
        let events = DriverEvents()
        self.events = events
        let configuration = SamsungSession.Configuration(
            host: identity.host, clientName: samsung.clientName,
            token: options.token.flatMap(SamsungToken.init), pinnedCertificate: options.certificatePin,
            securePort: options.securePort, plainPort: identity.port, approvalTimeout: options.approvalTimeout)
        let timeouts = SamsungChannel.Timeouts(
            connect: settings.connectTimeout, handshake: settings.requestTimeout, keepAlive: options.keepAlive,
            keepAliveTimeout: options.keepAliveTimeout)
        channel = SamsungChannel(
            configuration: configuration, timeouts: timeouts, logger: logger, emit: { events.yield($0) })
        let art = SamsungArt(timeouts: timeouts, logger: logger, emit: { events.yield($0) })
        self.art = art
        if let listener = options.eventListener {
            // Volume and mute pushed between polls: the art mode is merged in as in a poll.
            let rendering = SamsungRenderingEvents(
                listener: listener, http: http.upnp, host: identity.host, logger: logger,
                emit: { event in
                    guard case .state(let snapshot) = event else {
                        events.yield(event)
                        return
                    }
                    events.yield(.state(art.amend(snapshot)))
                })
            renderingEvents = rendering
            rendering.start()
        } else {
            renderingEvents = nil
        }
        art.setRepoll { [weak self] in await self?.poll(full: false) }
    }

    public var description: TVDescription {
        get async { state.withLock { $0.description } }
    }

    /// What `plan` checks commands against: the app table as last read, and the configuration.
    var planner: SamsungCommandPlanner {
        state.withLock {
            SamsungCommandPlanner(
                installed: $0.installed, known: $0.description.apps, configured: samsung.apps,
                inputs: SamsungInputs(configured: samsung.inputs),
                frameTV: $0.info?.frameTV ?? $0.description.capabilities.artMode)
        }
    }

    /// Checks a command against this TV's keys, inputs and apps, and resolves it into what
    /// `execute` does (`SamsungCommandPlanner`).
    public func plan(_ command: CheckedCommand) throws(CommandRejection) -> TVPlan {
        TVPlan(command.command, steps: try planner.plan(command))
    }

    public func updateHost(_ host: String) async {
        state.withLock { $0.description.identity.host = host }
        await http.updateHost(host)
        await channel.updateHost(host)
        renderingEvents?.updateHost(host)
    }

    public func shutdown() async {
        await channel.releaseHeldKey()
        await art.channel.shutdown()
        await renderingEvents?.stop()
        await channel.shutdown()
        await http.closeIdle()
        events.finish()
    }

    public func pair() async throws(DriverError) {
        try await channel.pair()
        // A Frame's art channel opens with the new pin and token now, not at the next poll.
        if isFrameTV, let credentials = await channel.artCredentials {
            await art.channel.keepConnected(credentials, model: modelDescription, now: true)
        }
    }

    public func adoptSecrets(token: String?, certificatePin: String?) async {
        await channel.adoptSecrets(token: token.flatMap(SamsungToken.init), certificatePin: certificatePin)
    }

    // MARK: apps

    /// An app the TV has, by name (case-insensitive) or id (`SamsungCommandPlanner.resolveApp`).
    func resolveApp(_ nameOrID: String) throws(CommandRejection) -> (id: String, type: SamsungRemoteMessage.LaunchType)
    {
        try planner.resolveApp(nameOrID)
    }
}
