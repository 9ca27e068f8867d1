import Net
import Support
import Synchronization
import Wire

/// Why a simulated TV refused to start or to change state.
public struct SimulatorError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A simulated Roku TV or stick on real sockets: HTTP ECP, the `/sim/state` back door, an
/// SSDP responder and a Wake-on-LAN listener, every command written to a `CommandLog`.
public final class RokuSimulator: Sendable {
    struct Core {
        var state = RokuSimState()
        /// When playback last (re)started; the position advances from there with wall time.
        var playingSince: ContinuousClock.Instant?
        /// ECP-2 (see `RokuSimulator+ECP2.swift`).
        var ecp2 = ECP2Core()
        /// HTTP requests answered (queries are not logged, a poller would flood the log; tests
        /// count them to see whether a bridge polls).
        var httpRequests = 0
        var iconRequests = 0
    }

    let options: RokuSimulatorOptions
    let identity: RokuIdentity
    /// Listeners, SSDP, Wake-on-LAN, background tasks and the command log (`SimHost`).
    let common: SimHost
    let core = Mutex(Core())
    let started = ContinuousClock.now

    /// The bound ECP port.
    public let port: UInt16
    public var host: String { options.host }
    /// The SSDP responder's port; nil without one.
    public var ssdpPort: UInt16? { common.ssdpPort }
    /// The Wake-on-LAN listener's port; nil without one.
    public var wolPort: UInt16? { common.wolPort }
    public var kind: RokuDeviceKind { options.kind }
    public var serial: String { identity.serial }
    public var name: String { identity.name }
    public var udn: String { identity.udn }
    /// Lowercase colon form, derived from the host (and port), stable.
    public var wifiMAC: String { identity.wifiMAC }
    public var ethernetMAC: String { identity.ethernetMAC }
    /// `http://host:port/`, what SSDP announces.
    public var location: String {
        options.host.contains(":")
            ? "http://[\(options.host)]:\(port)/" : "http://\(options.host):\(port)/"
    }

    private init(options: RokuSimulatorOptions, port: UInt16, log: CommandLog) {
        var options = options
        options.port = port
        self.options = options
        self.port = port
        identity = RokuIdentity(
            host: options.host, port: port, kind: options.kind, name: options.name, serial: options.serial
        )
        common = SimHost(address: options.host, label: identity.serial, log: log)
        core.withLock { core in
            core.state.ecpSetting = options.ecpSetting ?? (options.limited ? .limited : nil)
            core.ecp2.enabled = options.ecp2
            core.ecp2.announced = core.state
        }
    }

    /// Binds the ECP port (and the SSDP and Wake-on-LAN ports when asked) and starts serving.
    public static func start(_ options: RokuSimulatorOptions, log: CommandLog) async throws
        -> RokuSimulator
    {
        let listener = try TCPListener.bind(host: options.host, port: options.port)
        let simulator = RokuSimulator(options: options, port: listener.address.port, log: log)
        simulator.common.keep(simulator.makeServer(on: listener), as: Service.ecp)
        try await simulator.common.startUDP {
            try simulator.startSSDP()
            try simulator.startWakeOnLAN()
        }
        simulator.announce()
        return simulator
    }

    /// The one HTTP service, ECP (with `/sim/state`), named for `SimHost`.
    enum Service: String, Sendable {
        case ecp
    }

    /// Builds the ECP server on a bound listener (and nothing else: `SimHost.listen` calls it
    /// under its lock).
    func makeServer(on listener: TCPListener) -> SimHTTPServer {
        let upgrade = SimUpgrade(
            accepts: { [weak self] request in self?.acceptsECP2(request) ?? false },
            run: { [weak self] request, connection, leftover in
                await self?.serveECP2(request, on: connection, leftover: leftover)
            })
        return SimHTTPServer.start(
            listener: listener, serverHeader: RokuCatalog.serverHeader, upgrade: upgrade
        ) {
            [weak self] request, peer in
            guard let self else { return SimHTTPReply(HTTPResponse(status: 503)) }
            if let late = await self.heldWhileSilent(request) { return late }
            return self.handle(request, from: peer)
        }
    }

    /// HTTP requests answered so far (ECP queries and commands, `/sim/state`).
    public var httpRequestCount: Int { core.withLock { $0.httpRequests } }

    /// A snapshot of the state, with the playback position as of now.
    public var state: RokuSimState {
        core.withLock { $0.snapshot(at: .now) }
    }

    /// Changes the state as `POST /sim/state` does (see `RokuSimulator+SimState.swift`).
    public func apply(_ change: JSONValue) throws {
        let effect = try core.withLock { core throws(SimulatorError) in
            try applyLocked(change, to: &core)
        }
        perform(effect)
    }

    /// Closes every socket and waits for every task. The simulator cannot be restarted.
    public func stop() async { await common.stop() }

    var log: CommandLog { common.log }

    /// Writes one command-log line for this TV (held back inside an ECP-2 answer, `heldLog`).
    func record(_ kind: String, _ fields: [String: JSONValue]) {
        let entry = common.entry(kind, fields)
        if let hold = Self.heldLog {
            hold.entries.append(entry)
        } else {
            log.append(entry)
        }
    }
}

extension RokuSimulator.Core {
    func snapshot(at now: ContinuousClock.Instant) -> RokuSimState {
        var copy = state
        if let since = playingSince, state.mediaState == .play {
            let elapsed = now - since
            copy.positionMS += Int(elapsed.wholeMilliseconds)
            if copy.durationMS > 0 { copy.positionMS = min(copy.positionMS, copy.durationMS) }
        }
        return copy
    }

    /// Folds the time played so far into `positionMS`, before anything changes playback.
    mutating func settle(at now: ContinuousClock.Instant = .now) {
        state = snapshot(at: now)
        playingSince = state.mediaState == .play ? now : nil
    }

    /// Starts (or stops) the clock after the media state changed.
    mutating func restartClock(at now: ContinuousClock.Instant = .now) {
        playingSince = state.mediaState == .play ? now : nil
    }
}
