import Support
import Synchronization
import TVModel
import Wire

/// What an LG driver needs besides `DriverSettings`: its ports and the secrets persisted in
/// the state directory.
public struct LGDriverOptions: Sendable {
    public var securePort: UInt16
    public var plainPort: UInt16
    /// The client key the TV issued at pairing; never logged.
    public var clientKey: String?
    /// SHA-256 of the TV's certificate, hex.
    public var certificatePin: String?
    /// How long the user has to answer the prompt on the TV.
    public var approvalTimeout: Duration
    /// The SSAP socket is pinged after this long without a message, dropped when no answer
    /// comes within `keepAliveTimeout`.
    public var keepAlive: Duration
    public var keepAliveTimeout: Duration
    /// Port 3000 in clear for a TV that refuses 3001 and never spoke TLS (`tvs[].allow_cleartext`).
    public var allowCleartext: Bool

    public init(
        securePort: UInt16 = LGPorts.secure, plainPort: UInt16 = LGPorts.plain, clientKey: String? = nil,
        certificatePin: String? = nil, approvalTimeout: Duration = .seconds(60), keepAlive: Duration = .seconds(20),
        keepAliveTimeout: Duration = .seconds(10), allowCleartext: Bool = false
    ) {
        self.allowCleartext = allowCleartext
        self.securePort = securePort
        self.plainPort = plainPort
        self.clientKey = clientKey
        self.certificatePin = certificatePin
        self.approvalTimeout = approvalTimeout
        self.keepAlive = keepAlive
        self.keepAliveTimeout = keepAliveTimeout
    }
}

/// LG's SSAP ports: TLS, and in clear for TVs without TLS.
public enum LGPorts {
    public static let secure: UInt16 = 3001
    public static let plain: UInt16 = 3000
}

/// An LG webOS TV (LG/README.md): one SSAP WebSocket (`LGConnection`) for requests and
/// subscriptions, the pointer socket for buttons, Wake-on-LAN to power on. State is pushed by
/// subscriptions while they hold; the bridge then polls only to reconcile.
public final class LGDriver: TVDriver {
    struct State {
        var description: TVDescription
        /// The last state read or pushed.
        var snapshot = TVSnapshot(reachable: false)
        var inputs: [LGInput] = []
        /// App id → its icon's path on the TV (`LGReadings.iconPaths`).
        var iconPaths: [String: String] = [:]
        var channels: [LGChannel] = []
        var subscribed = false
        var catalogueLoaded = false
        /// "subscriptions refused: polling" was logged (said once).
        var pollingSaid = false
    }

    public let kind = TVKind.lg
    public let events = DriverEvents()
    let state: Mutex<State>
    let connection: LGConnection
    let settings: DriverSettings
    let logger: Logger

    public init(description: TVDescription, settings: DriverSettings, options: LGDriverOptions = .init()) {
        let identity = description.identity
        self.settings = settings
        logger = settings.logger.labeled("lg").with("tv", identity.id.rawValue)
        state = Mutex(State(description: description))
        let events = events
        let relay = LGPushRelay()
        connection = LGConnection(
            configuration: LGConnection.Configuration(
                host: identity.host, securePort: options.securePort, plainPort: options.plainPort,
                clientKey: options.clientKey, pin: options.certificatePin, approvalTimeout: options.approvalTimeout,
                connectTimeout: settings.connectTimeout, requestTimeout: settings.requestTimeout,
                keepAlive: options.keepAlive, keepAliveTimeout: options.keepAliveTimeout,
                allowCleartext: options.allowCleartext),
            logger: logger, emit: { events.yield($0) }, onPush: { relay.deliver($0, $1) },
            onReconnected: { relay.reconnected() })
        relay.set(
            push: { [weak self] uri, payload in self?.pushed(uri, payload) },
            reconnected: { [weak self] in self?.refreshAfterRegistering() })
    }

    public var description: TVDescription {
        get async { state.withLock { $0.description } }
    }

    public var reconcileInterval: Duration? { state.withLock { $0.subscribed } ? .seconds(60) : nil }

    public func plan(_ checked: CheckedCommand) throws(CommandRejection) -> TVPlan {
        let command = checked.command
        let planner = state.withLock {
            LGCommandPlanner(
                apps: $0.description.apps, inputs: $0.inputs, channels: $0.channels,
                soundOutputs: $0.description.capabilities.soundOutputs)
        }
        return TVPlan(command, steps: try planner.plan(command))
    }

    public func execute(_ plan: TVPlan) async throws(DriverError) {
        for action in try plan.steps(as: [LGAction].self) {
            switch action {
            case .buttons(let names): try await connection.sendButtons(names, prompt: true)
            case .power(let action): try await power(action)
            case .request(let uri, let payload): _ = try await connection.request(uri, payload, prompt: true)
            case .text(let text):
                _ = try await connection.request(
                    LGURI.insertText, ["text": .string(text), "replace": false], prompt: true)
            }
        }
        refreshAfterRegistering()
    }

    public func updateHost(_ host: String) async {
        state.withLock { $0.description.identity.host = host }
        await connection.updateHost(host)
    }

    public func shutdown() async {
        await connection.shutdown()
        events.finish()
    }

    /// Pairs, then reads and subscribes at once: the bridge has no reason to poll just then.
    public func pair() async throws(DriverError) {
        try await connection.pair()
        refreshAfterRegistering()
    }

    public func pair(pin: String) async throws(DriverError) {
        guard PairingPIN.digits.accepts(pin) else { throw DriverError(.rejected, PairingPIN.digits.refusal) }
        try await connection.pair(pin: pin)
        refreshAfterRegistering()
    }

    /// The first registration happened outside a poll (a pairing, or a command that showed the
    /// prompt): state and subscriptions now, published as pushed state.
    func refreshAfterRegistering() {
        guard !state.withLock({ $0.subscribed }) else { return }
        Task { [weak self] in
            guard let self else { return }
            events.yield(.state(await poll(full: true)))
        }
    }

    public func adoptSecrets(token: String?, certificatePin: String?) async {
        await connection.adoptSecrets(clientKey: token, pin: certificatePin)
    }

    /// A subscription's push (or, with `uri` nil, the socket's end): the snapshot is amended
    /// and published at once.
    func pushed(_ uri: String?, _ payload: JSONValue) {
        let snapshot = state.withLock { state -> TVSnapshot in
            guard let uri else {
                // Lost: the bridge polls at once (reconnecting) and resumes its own pace.
                state.subscribed = false
                return state.snapshot
            }
            Self.apply(uri, payload, to: &state)
            return state.snapshot
        }
        events.yield(.state(snapshot))
    }

    static func apply(_ uri: String, _ payload: JSONValue, to state: inout State) {
        switch uri {
        case LGURI.powerState: LGReadings.power(payload, into: &state.snapshot)
        case LGURI.volume: LGReadings.volume(payload, into: &state.snapshot)
        case LGURI.foregroundApp:
            LGReadings.foreground(
                payload, apps: state.description.apps, inputs: state.inputs, into: &state.snapshot)
        case LGURI.currentChannel: LGReadings.channel(payload, into: &state.snapshot)
        case LGURI.soundOutput: LGReadings.soundOutput(payload, into: &state.snapshot)
        default: break
        }
    }
}

/// Hands subscription pushes and reconnections from the connection to the driver, which
/// exists only after the connection was made.
final class LGPushRelay: Sendable {
    private let target = Mutex<(@Sendable (String?, JSONValue) -> Void)?>(nil)
    private let reconnectTarget = Mutex<(@Sendable () -> Void)?>(nil)

    func set(
        push: @escaping @Sendable (String?, JSONValue) -> Void, reconnected: @escaping @Sendable () -> Void
    ) {
        target.withLock { $0 = push }
        reconnectTarget.withLock { $0 = reconnected }
    }

    func deliver(_ uri: String?, _ payload: JSONValue) { target.withLock { $0 }?(uri, payload) }

    func reconnected() { reconnectTarget.withLock { $0 }?() }
}
