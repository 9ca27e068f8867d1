import Clients
import Net
import Support
import Synchronization
import Wire

/// A simulated LG webOS TV on real sockets: SSAP over WebSocket in clear on `portWS` (with the
/// icons and the `/sim/state` back door) and over TLS on `portWSS` (a self-signed certificate),
/// prompt and PIN pairing, the pointer input socket, subscriptions pushed on every change, the
/// power states, a UPnP description on `portUPnP`, an SSDP responder and a Wake-on-LAN listener;
/// every command goes to a `CommandLog`. What it speaks is written in `README.md` beside it.
public final class LGSimulator: Sendable {
    /// The TCP services; which are listening follows the power state.
    enum Service: String, CaseIterable, Sendable {
        case plain, secure, upnp
    }

    /// One open SSAP connection, as the pushes need it.
    struct Session {
        let outbox: AsyncStream<String>.Continuation
        /// Over TLS (the pointer socket and icon URLs it is given say wss/https).
        let secure: Bool
        var subscriptions: [Subscription] = []
    }

    /// A subscription: its id as the client sent it, what it reads, and the payload last pushed.
    struct Subscription {
        let id: JSONValue
        let uri: String
        var last: String
    }

    struct Core {
        var state = LGSimState()
        /// The one served on `portWSS`, and the one `replaceCertificate` replaced.
        var certificates: SimCertificates
        /// How the TV misbehaves on purpose, if it does (`setFault`).
        var fault: LGFault?
        /// Client keys issued, oldest first.
        var clientKeys: [String] = []
        var sessions: [Int: Session] = [:]
        var nextSession = 0
        /// Pointer socket paths handed out.
        var pointerPaths: Set<String> = []
        var toasts = 0
    }

    let options: LGSimulatorOptions
    let identity: LGIdentity
    /// Listeners, SSDP, Wake-on-LAN, background tasks and the command log (`SimHost`).
    let common: SimHost
    let core: Mutex<Core>

    public var host: String { options.host }
    public var ssdpPort: UInt16? { common.ssdpPort }
    public var wolPort: UInt16? { common.wolPort }
    public let portWS: UInt16
    /// The TLS port; nil for a `plain` model.
    public let portWSS: UInt16?
    public let portUPnP: UInt16
    public var name: String { identity.name }
    public var modelName: String { identity.modelName }
    /// "uuid:…", stable per host (and SSAP port when not 3000).
    public var udn: String { identity.udn }
    public var wiredMAC: String { identity.wiredMAC }
    public var wifiMAC: String { identity.wifiMAC }
    /// SHA-256 of the DER certificate served on `portWSS`.
    public var certificateSHA256: [UInt8] { core.withLock { $0.certificates.current.sha256 } }
    /// Every client key issued so far, oldest first.
    public var clientKeys: [String] { core.withLock { $0.clientKeys } }
    /// The SSDP LOCATION: the UPnP description.
    public var location: String { "http://\(common.urlHost):\(portUPnP)/" }
    /// A snapshot of the state.
    public var state: LGSimState { core.withLock { $0.state } }
    /// SSAP connections open now.
    public var connectionCount: Int { core.withLock { $0.sessions.count } }

    private init(
        options: LGSimulatorOptions, ports: [Service: UInt16], identity: LGIdentity, certificate: SimCertificate,
        log: CommandLog
    ) {
        var options = options
        portWS = ports[.plain] ?? options.portWS
        portWSS = options.plain ? nil : (ports[.secure] ?? options.portWSS)
        portUPnP = ports[.upnp] ?? options.portUPnP
        options.portWS = portWS
        options.portWSS = portWSS ?? 0
        options.portUPnP = portUPnP
        self.options = options
        self.identity = identity
        common = SimHost(address: options.host, label: identity.name, log: log)
        core = Mutex(Core(certificates: SimCertificates(certificate)))
    }

    /// Binds the TCP ports (and the SSDP and Wake-on-LAN ports when asked), makes a self-signed
    /// certificate, and starts serving.
    public static func start(_ options: LGSimulatorOptions, log: CommandLog) async throws -> LGSimulator {
        var listeners: [Service: TCPListener] = [:]
        let identity: LGIdentity
        let certificate: SimCertificate
        do {
            listeners[.plain] = try TCPListener.bind(host: options.host, port: options.portWS)
            if !options.plain {
                listeners[.secure] = try TCPListener.bind(host: options.host, port: options.portWSS)
            }
            listeners[.upnp] = try TCPListener.bind(host: options.host, port: options.portUPnP)
            identity = LGIdentity(
                host: options.host, port: listeners[.plain]?.address.port ?? options.portWS, name: options.name,
                model: options.model)
            certificate = try await SimCertificate.make(commonName: identity.name, host: options.host)
        } catch {
            for listener in listeners.values { listener.close() }
            throw error
        }
        let simulator = LGSimulator(
            options: options, ports: listeners.mapValues(\.address.port), identity: identity,
            certificate: certificate, log: log)
        for (service, listener) in listeners {
            simulator.common.keep(simulator.makeServer(service, on: listener), as: service)
        }
        try await simulator.common.startUDP {
            try simulator.startSSDP()
            try simulator.startWakeOnLAN()
        }
        simulator.announce()
        return simulator
    }

    /// Changes the state as `POST /sim/state` does (see `LGSimulator+SimState.swift`).
    public func apply(_ change: JSONValue) throws {
        try core.withLock { core throws(SimulatorError) in try applyLocked(change, to: &core) }
        syncListeners()
    }

    /// Serves a new self-signed certificate on `portWSS` from the next connection on (tests of
    /// a changed pin). Connections already open keep the old one.
    public func replaceCertificate() async throws {
        let certificate = try await SimCertificate.make(commonName: identity.name, host: options.host)
        core.withLock { $0.certificates.replace(with: certificate) }
    }

    /// Serves the certificate `replaceCertificate` replaced again, from the next connection on.
    public func restoreCertificate() { core.withLock { $0.certificates.restore() } }

    /// Makes the TV misbehave as `fault` says from the next answer on (nil: behave).
    public func setFault(_ fault: LGFault?) { core.withLock { $0.fault = fault } }

    /// Closes every socket and waits for every task. The simulator cannot be restarted.
    public func stop() async {
        await common.stop {
            let outboxes = core.withLock { core in
                defer { core.sessions = [:] }
                return core.sessions.values.map(\.outbox)
            }
            for outbox in outboxes { outbox.finish() }
        }
    }

    func record(_ kind: String, _ fields: [String: JSONValue]) { common.record(kind, fields) }
}
