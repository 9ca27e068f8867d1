import Clients
import Net
import Support
import Synchronization
import Wire

/// A simulated Samsung Tizen TV (2020) on real sockets: REST and the remote-control WebSocket
/// on `portWS` (plain) and `portWSS` (TLS, self-signed certificate, token pairing), UPnP
/// RenderingControl on `portUPnP`, the `/sim/state` back door, an SSDP responder and a
/// Wake-on-LAN listener; every command is written to a `CommandLog`.
public final class SamsungSimulator: Sendable {
    /// The three TCP services; which are listening follows the power state.
    enum Service: String, CaseIterable, Sendable {
        case rest, secure, upnp
    }

    struct Core {
        var state = SamsungSimState()
        /// The one served on `portWSS`, and the one `replaceCertificate` replaced.
        var certificates: SimCertificates
        /// Issued tokens, oldest first, with the client name each is bound to.
        var tokens: [(token: String, client: String)] = []
        /// HTTP requests answered (queries are not logged, a poller would flood the log; tests
        /// count them to see what a poll costs).
        var httpRequests = 0
        var applicationStatusRequests = 0
        var renderingReads = 0
        /// How the art channel misbehaves, if it does (`setArtFault`).
        var artFault: SamsungArtFault?
        /// Open art channels by client id: what one client emits to "broadcast" reaches the others.
        var artClients: [String: WebSocketConnection] = [:]
    }

    let options: SamsungSimulatorOptions
    let identity: SamsungIdentity
    /// Listeners, SSDP, Wake-on-LAN, background tasks and the command log (`SimHost`).
    let common: SimHost
    let core: Mutex<Core>
    /// UPnP event subscribers and the NOTIFYs they are owed (`SamsungSimulator+Events.swift`).
    let eventHub: SamsungEventHub

    public var host: String { options.host }
    /// The SSDP responder's port; nil without one.
    public var ssdpPort: UInt16? { common.ssdpPort }
    /// The Wake-on-LAN listener's port; nil without one.
    public var wolPort: UInt16? { common.wolPort }
    public let portWS: UInt16
    public let portWSS: UInt16
    public let portUPnP: UInt16
    public var name: String { identity.name }
    /// "uuid:…", stable per host (and REST port when not 8001).
    public var duid: String { identity.duid }
    /// As the TV reports it in `wifiMac`: uppercase with colons ("8C:EA:48:00:00:03").
    public var wifiMAC: String { identity.wifiMAC }
    public var modelName: String { identity.modelName }
    public var frame: Bool { options.frame }
    /// SHA-256 of the DER certificate served on `portWSS` now.
    public var certificateSHA256: [UInt8] { core.withLock { $0.certificates.current.sha256 } }
    /// Every token issued so far, oldest first.
    public var issuedTokens: [String] { core.withLock { $0.tokens.map(\.token) } }
    /// HTTP requests answered so far: REST (with `/sim/state`) and UPnP, not WebSocket frames.
    public var httpRequestCount: Int { core.withLock { $0.httpRequests } }
    /// `GET /api/v2/applications/<id>` requests answered so far (app status checks).
    public var applicationStatusRequestCount: Int { core.withLock { $0.applicationStatusRequests } }
    /// UPnP `GetVolume` and `GetMute` requests answered so far.
    public var renderingReadCount: Int { core.withLock { $0.renderingReads } }
    /// The SSDP LOCATION: the UPnP device description.
    public var location: String {
        "http://\(SamsungDocuments.hostForURL(options.host)):\(portUPnP)/dmr"
    }

    private init(
        options: SamsungSimulatorOptions, ports: [Service: UInt16], certificate: SimCertificate,
        identity: SamsungIdentity, log: CommandLog
    ) {
        var options = options
        portWS = ports[.rest] ?? options.portWS
        portWSS = ports[.secure] ?? options.portWSS
        portUPnP = ports[.upnp] ?? options.portUPnP
        options.portWS = portWS
        options.portWSS = portWSS
        options.portUPnP = portUPnP
        self.options = options
        self.identity = identity
        common = SimHost(address: options.host, label: identity.name, log: log)
        core = Mutex(Core(certificates: SimCertificates(certificate)))
        eventHub = SamsungEventHub(accepting: options.acceptsSubscriptions)
    }

    /// Binds the three TCP ports (and the SSDP and Wake-on-LAN ports when asked), makes a
    /// self-signed certificate named after the TV, and starts serving.
    public static func start(_ options: SamsungSimulatorOptions, log: CommandLog) async throws
        -> SamsungSimulator
    {
        var listeners: [Service: TCPListener] = [:]
        do {
            listeners[.rest] = try TCPListener.bind(host: options.host, port: options.portWS)
            listeners[.secure] = try TCPListener.bind(host: options.host, port: options.portWSS)
            listeners[.upnp] = try TCPListener.bind(host: options.host, port: options.portUPnP)
        } catch {
            for listener in listeners.values { listener.close() }
            throw error
        }
        let ports = listeners.mapValues(\.address.port)
        let identity = SamsungIdentity(
            host: options.host, port: ports[.rest] ?? options.portWS, name: options.name,
            model: options.model, frame: options.frame,
            generation: options.frame ? options.artFirmware.identity : nil)
        let certificate: SimCertificate
        do {
            certificate = try await SimCertificate.make(commonName: identity.name, host: options.host)
        } catch {
            for listener in listeners.values { listener.close() }
            throw error
        }
        let simulator = SamsungSimulator(
            options: options, ports: ports, certificate: certificate, identity: identity, log: log)
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

    /// A snapshot of the state.
    public var state: SamsungSimState { core.withLock { $0.state } }

    /// Changes the state as `POST /sim/state` does (see `SamsungSimulator+SimState.swift`).
    public func apply(_ change: JSONValue) throws {
        try core.withLock { core throws(SimulatorError) in try applyLocked(change, to: &core) }
        syncListeners()
    }

    /// Serves a new self-signed certificate on `portWSS` from the next connection on (tests
    /// of a changed pin). Connections already open keep the old one.
    public func replaceCertificate() async throws {
        let certificate = try await SimCertificate.make(commonName: identity.name, host: options.host)
        core.withLock { $0.certificates.replace(with: certificate) }
    }

    /// Serves the certificate `replaceCertificate` replaced again, from the next connection on
    /// (the real TV back after someone else answered on its address).
    public func restoreCertificate() {
        core.withLock { $0.certificates.restore() }
    }

    /// Closes every socket and waits for every task. The simulator cannot be restarted.
    public func stop() async { await common.stop() }

    /// Writes one command-log line for this TV.
    func record(_ kind: String, _ fields: [String: JSONValue]) {
        common.record(kind, fields)
        eventHub.changed.signal()  // volume or mute may have changed: subscribers are told
    }
}
