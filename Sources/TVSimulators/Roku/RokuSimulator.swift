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
        var server: SimHTTPServer?
        /// Servers closed by power-off, awaited at `stop()`.
        var retired: [SimHTTPServer] = []
        var background: [Task<Void, Never>] = []
        var sockets: [UDPSocket] = []
        /// The SSDP and Wake-on-LAN ports bound (the kernel's pick when the options said 0).
        var ssdpPort: UInt16?
        var wolPort: UInt16?
        var stopped = false
        /// ECP-2 (see `RokuSimulator+ECP2.swift`).
        var ecp2 = ECP2Core()
        /// HTTP requests answered (queries are not logged, a poller would flood the log; tests
        /// count them to see whether a bridge polls).
        var httpRequests = 0
        var iconRequests = 0
    }

    let options: RokuSimulatorOptions
    let identity: RokuIdentity
    let log: CommandLog
    let core = Mutex(Core())
    let started = ContinuousClock.now

    /// The bound ECP port.
    public let port: UInt16
    public var host: String { options.host }
    /// The SSDP responder's port; nil without one.
    public var ssdpPort: UInt16? { core.withLock { $0.ssdpPort } }
    /// The Wake-on-LAN listener's port; nil without one.
    public var wolPort: UInt16? { core.withLock { $0.wolPort } }
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
        self.log = log
        identity = RokuIdentity(
            host: options.host, port: port, kind: options.kind, name: options.name, serial: options.serial
        )
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
        simulator.serve(on: listener)
        do {
            try simulator.startSSDP()
            try simulator.startWakeOnLAN()
        } catch {
            await simulator.stop()
            throw error
        }
        simulator.announce()
        return simulator
    }

    func serve(on listener: TCPListener) {
        let upgrade = SimUpgrade(
            accepts: { [weak self] request in self?.acceptsECP2(request) ?? false },
            run: { [weak self] request, connection, leftover in
                await self?.serveECP2(request, on: connection, leftover: leftover)
            })
        let server = SimHTTPServer.start(
            listener: listener, serverHeader: RokuCatalog.serverHeader, upgrade: upgrade
        ) {
            [weak self] request, peer in
            guard let self else { return SimHTTPReply(HTTPResponse(status: 503)) }
            if let late = await self.heldWhileSilent(request) { return late }
            return self.handle(request, from: peer)
        }
        let keep = core.withLock { core -> Bool in
            guard !core.stopped else { return false }
            core.server = server
            return true
        }
        if !keep { server.close() }
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
    public func stop() async {
        let (servers, tasks) = core.withLock { core -> ([SimHTTPServer], [Task<Void, Never>]) in
            core.stopped = true
            for socket in core.sockets { socket.close() }
            for task in core.background { task.cancel() }
            let servers = core.retired + [core.server].compactMap { $0 }
            core.server = nil
            core.retired = []
            return (servers, core.background)
        }
        for server in servers { await server.stop() }
        for task in tasks { await task.value }
    }

    /// Writes one command-log line for this TV.
    func record(_ kind: String, _ fields: [String: JSONValue]) {
        var entry = fields
        entry["tv"] = .string(identity.serial)
        entry["host"] = .string(options.host)
        entry["kind"] = .string(kind)
        entry["at"] = .number((wallClockSeconds() * 1_000_000).rounded() / 1_000_000)
        if let hold = Self.heldLog {
            hold.entries.append(.object(entry))
        } else {
            log.append(.object(entry))
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
