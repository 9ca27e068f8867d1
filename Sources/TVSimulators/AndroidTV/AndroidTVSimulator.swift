import Net
import Support
import Synchronization
import Wire

/// A simulated Android TV (Google TV) on real sockets: the pairing protocol over TLS on
/// `pairingPort` (the code on its command log and `/sim/state`), the remote protocol over TLS on
/// `remotePort` for paired client certificates only (others get alert certificate_unknown), the
/// state it pushes (power, the app in front, volume), pings, and `/sim/state` over HTTP on
/// `simPort`. Every key, app link and text it receives goes to the command log. Its messages are
/// written here with the generic protobuf codec, apart from the bridge's driver, so a mistake in
/// one is not hidden by the other; `androidtvremote2` checks this one (`AndroidTVInteropTests`).
public final class AndroidTVSimulator: Sendable {
    /// One open remote session: what is pushed to it goes through its outbox.
    struct Session {
        let outbox: AsyncStream<[UInt8]>.Continuation
        /// Ends the session's connection (the TV fell into deep sleep).
        let close: @Sendable () -> Void
        /// The client answered set active: state may be pushed.
        var active = false
    }

    struct Core {
        var state = AndroidTVSimState()
        /// SHA-256 of each paired client certificate.
        var paired: [[UInt8]] = []
        /// The code on screen while a pairing waits for it.
        var code: String?
        var sessions: [Int: Session] = [:]
        var nextSession = 0
        var pings: Int32 = 0
    }

    enum Service: String, CaseIterable, Sendable {
        case sim
    }

    let options: AndroidTVSimulatorOptions
    let identity: TLSIdentity
    let context: TLSContext
    let common: SimHost
    let core = Mutex(Core())
    let remoteListener: TCPListener
    let pairingListener: TCPListener

    public var host: String { options.host }
    public var remotePort: UInt16 { remoteListener.address.port }
    public var pairingPort: UInt16 { pairingListener.address.port }
    public let simPort: UInt16
    public var ssdpPort: UInt16? { common.ssdpPort }
    public var wolPort: UInt16? { common.wolPort }
    public var mdnsPort: UInt16? { common.mdnsPort }
    /// `02:00:` and the four bytes of the IPv4 host: stable per address.
    public let mac: String
    public var name: String { options.name }
    public var state: AndroidTVSimState { core.withLock { $0.state } }
    /// The code the TV shows while a pairing waits for it.
    public var pairingCode: String? { core.withLock { $0.code } }
    public var pairedClients: Int { core.withLock { $0.paired.count } }
    /// Remote sessions open now.
    public var sessionCount: Int { core.withLock { $0.sessions.count } }

    private init(
        options: AndroidTVSimulatorOptions, identity: TLSIdentity, context: TLSContext, remote: TCPListener,
        pairing: TCPListener, simPort: UInt16, mac: String, log: CommandLog
    ) {
        self.options = options
        self.identity = identity
        self.context = context
        remoteListener = remote
        pairingListener = pairing
        self.simPort = simPort
        self.mac = mac
        common = SimHost(address: options.host, label: options.name, log: log)
    }

    /// Binds the three ports, makes its RSA certificate (the pairing secret hashes its key), and
    /// starts serving.
    public static func start(_ options: AndroidTVSimulatorOptions, log: CommandLog) async throws -> AndroidTVSimulator {
        let mac = macAddress(for: options.host)
        var bound: [TCPListener] = []
        do {
            let remote = try TCPListener.bind(host: options.host, port: options.remotePort)
            bound.append(remote)
            let pairing = try TCPListener.bind(host: options.host, port: options.pairingPort)
            bound.append(pairing)
            let sim = try TCPListener.bind(host: options.host, port: options.simPort)
            bound.append(sim)
            // The subject a real TV's certificate carries: atvremote/<product>/<device>/<name>/<MAC>.
            // Made on one of Dispatch's threads: generating an RSA key would hold the event loop.
            let identity = try await BlockingWork.run {
                Result {
                    try TLSIdentity.generateRSA(commonName: "atvremote/\(options.model)/sim/\(options.name)/\(mac)")
                }
            }.get()
            let context = try TLSContext.server(
                certificatePEM: identity.certificatePEM, privateKeyPEM: identity.privateKeyPEM,
                requestClientCertificate: true)
            let simulator = AndroidTVSimulator(
                options: options, identity: identity, context: context, remote: remote, pairing: pairing,
                simPort: sim.address.port, mac: mac, log: log)
            simulator.common.keep(simulator.makeSimServer(on: sim), as: Service.sim)
            try await simulator.common.startUDP {
                try simulator.common.startMDNS(on: options.mdnsPort, simulator.mdnsAdvert) {
                    simulator.common.isStopped
                }
                try simulator.common.startWakeOnLAN(on: options.wolPort, macs: [mac.lowercased()]) { _, from in
                    simulator.woken(from: from)
                }
            }
            simulator.common.spawn { await simulator.acceptLoop(remote) { await simulator.serveRemote($0) } }
            simulator.common.spawn { await simulator.acceptLoop(pairing) { await simulator.servePairing($0) } }
            return simulator
        } catch {
            for listener in bound { listener.close() }
            throw error
        }
    }

    /// Changes the state as `POST /sim/state` does, and pushes the change.
    public func apply(_ change: JSONValue) throws {
        try core.withLock { core throws(SimulatorError) in try applyLocked(change, to: &core) }
    }

    public func stop() async {
        await common.stop {
            remoteListener.close()
            pairingListener.close()
            core.withLock { core in
                for session in core.sessions.values { session.outbox.finish() }
            }
        }
    }

    private func acceptLoop(_ listener: TCPListener, serve: @escaping @Sendable (TCPConnection) async -> Void) async {
        while !Task.isCancelled, !common.isStopped {
            guard let connection = try? await listener.accept() else { return }
            common.spawn { await serve(connection) }
        }
    }

    /// What it answers a DNS-SD browse with: both service types, its name, `bt` = its MAC.
    var mdnsAdvert: SimMDNSAdvert {
        SimMDNSAdvert(
            host: options.host,
            services: [try! DNSName("_androidtvremote2._tcp.local"), try! DNSName("_androidtvremote._tcp.local")],
            instance: options.name, hostName: try! DNSName("Android-\(mac.filter { $0 != ":" }).local"),
            port: remotePort, txt: ["bt=\(mac)"])
    }

    static func macAddress(for host: String) -> String {
        let octets = host.split(separator: ".").compactMap { UInt8($0) }
        let bytes: [UInt8] = [0x02, 0x00] + (octets.count == 4 ? octets : [0, 0, 0, 1])
        return bytes.map { SimHex.digits(UInt32($0), 2).uppercased() }.joined(separator: ":")
    }

    /// One command-log line.
    func record(_ kind: String, _ fields: [String: JSONValue]) { common.record(kind, fields) }
}
extension AndroidTVSimulator: SimulatedTV {}
extension AndroidTVSimulatorOptions: SimulatedTVOptions {}
