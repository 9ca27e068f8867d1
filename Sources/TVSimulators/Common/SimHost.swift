import Net
import Support
import Synchronization
import Wire

/// What every simulated TV has around its own protocol: its address and name, its HTTP
/// listeners (opened and closed as its power says), the SSDP responder and Wake-on-LAN port,
/// the background tasks serving them, and its lines in the command log. `stop()` ends it all.
///
/// Its lock is the innermost: a vendor may call it while holding its own state's lock, and it
/// never calls the vendor back while holding it (the server makers it is given only build).
final class SimHost: Sendable {
    struct Parts {
        var servers: [String: SimHTTPServer] = [:]
        /// Servers closed by power changes, awaited at `stop()`.
        var retired: [SimHTTPServer] = []
        var background: [Task<Void, Never>] = []
        var sockets: [UDPSocket] = []
        /// The SSDP and Wake-on-LAN ports bound (the kernel's pick when asked for 0).
        var ssdpPort: UInt16?
        var wolPort: UInt16?
        var mdnsPort: UInt16?
        var stopped = false
    }

    /// The address every socket binds.
    let address: String
    /// Who the TV is in the command log (`tv`) and in messages on stderr.
    let label: String
    let log: CommandLog
    private let parts = Mutex(Parts())

    init(address: String, label: String, log: CommandLog) {
        self.address = address
        self.label = label
        self.log = log
    }

    var isStopped: Bool { parts.withLock { $0.stopped } }
    /// The address as a URL writes it (IPv6 in brackets).
    var urlHost: String { address.contains(":") ? "[\(address)]" : address }
    var ssdpPort: UInt16? { parts.withLock { $0.ssdpPort } }
    var wolPort: UInt16? { parts.withLock { $0.wolPort } }
    var mdnsPort: UInt16? { parts.withLock { $0.mdnsPort } }

    /// One command-log line for this TV: `fields` with `tv`, `host`, `kind` and the time.
    func entry(_ kind: String, _ fields: [String: JSONValue]) -> JSONValue {
        var entry = fields
        entry["tv"] = .string(label)
        entry["host"] = .string(address)
        entry["kind"] = .string(kind)
        entry["at"] = .number((wallClockSeconds() * 1_000_000).rounded() / 1_000_000)
        return .object(entry)
    }

    func record(_ kind: String, _ fields: [String: JSONValue]) { log.append(entry(kind, fields)) }

    /// Opens and closes HTTP services so that exactly `wanted` listen, each on `port(service)`,
    /// served by what `make` builds. A port someone took meanwhile is reported on stderr and
    /// that service stays closed. `cameBack`: none listened before, some do now.
    @discardableResult
    func listen<Service: RawRepresentable<String>>(
        _ wanted: [Service], port: (Service) -> UInt16, make: (Service, TCPListener) -> SimHTTPServer
    ) -> (cameBack: Bool, failed: Bool) {
        let names = Set(wanted.map(\.rawValue))
        let (cameBack, failures) = parts.withLock { parts -> (Bool, [String]) in
            guard !parts.stopped else { return (false, []) }
            let wasClosed = parts.servers.isEmpty
            var failures: [String] = []
            for (name, server) in parts.servers where !names.contains(name) {
                server.close()
                parts.retired.append(server)
                parts.servers[name] = nil
            }
            for service in wanted where parts.servers[service.rawValue] == nil {
                do {
                    let listener = try TCPListener.bind(host: address, port: port(service))
                    parts.servers[service.rawValue] = make(service, listener)
                } catch {
                    failures.append("\(address):\(port(service)): \(error)")
                }
            }
            return (wasClosed && !parts.servers.isEmpty, failures)
        }
        for failure in failures {
            // Someone took the port while the TV was off: that service stays unreachable.
            writeStandardError("tvsim: \(label) cannot listen again on \(failure)")
        }
        return (cameBack, !failures.isEmpty)
    }

    /// Serves `service` on a listener bound already (at start, where the port had to be known
    /// first); closed at once when the TV has stopped.
    func keep<Service: RawRepresentable<String>>(_ server: SimHTTPServer, as service: Service) {
        let kept = parts.withLock { parts -> Bool in
            guard !parts.stopped else { return false }
            parts.servers[service.rawValue] = server
            return true
        }
        if !kept { server.close() }
    }

    /// The port `service` listens on now; nil while it is closed.
    func port<Service: RawRepresentable<String>>(of service: Service) -> UInt16? {
        parts.withLock { $0.servers[service.rawValue]?.port }
    }

    /// Keeps a socket to close at `stop()` (closed at once when already stopped).
    func adopt(_ socket: UDPSocket) {
        let kept = parts.withLock { parts -> Bool in
            guard !parts.stopped else { return false }
            parts.sockets.append(socket)
            return true
        }
        if !kept { socket.close() }
    }

    /// Runs a background task that `stop()` cancels and awaits.
    func spawn(_ work: @escaping @Sendable () async -> Void) {
        parts.withLock { parts in
            guard !parts.stopped else { return }
            parts.background.removeAll { $0.isCancelled }
            parts.background.append(Task { await work() })
        }
    }

    /// Closes every socket and server and waits for every task. There is no restart.
    /// `closeOwn` closes what the vendor holds itself, once `isStopped` is already true (so
    /// nothing it accepts afterwards is kept) and before the tasks are awaited.
    func stop(closingOwn closeOwn: () -> Void = {}) async {
        let (servers, tasks) = parts.withLock { parts -> ([SimHTTPServer], [Task<Void, Never>]) in
            parts.stopped = true
            for socket in parts.sockets { socket.close() }
            for task in parts.background { task.cancel() }
            let servers = parts.retired + Array(parts.servers.values)
            for server in servers { server.close() }
            parts.servers = [:]
            parts.retired = []
            return (servers, parts.background)
        }
        closeOwn()
        for server in servers { await server.stop() }
        for task in tasks { await task.value }
    }

    fileprivate func noteSSDPPort(_ port: UInt16) { parts.withLock { $0.ssdpPort = port } }
    fileprivate func noteWOLPort(_ port: UInt16) { parts.withLock { $0.wolPort = port } }
    func noteMDNSPort(_ port: UInt16) { parts.withLock { $0.mdnsPort = port } }
}

/// The SSDP responder and the Wake-on-LAN listener.
///
/// Several simulated TVs (and a test's searcher) share one SSDP port, so the responder binds
/// `0.0.0.0:P` with SO_REUSEADDR/SO_REUSEPORT: a search broadcast to 127.255.255.255:P reaches
/// every such socket. A unicast search to one TV's `host:P` would go to just one socket of the
/// group, so each TV also binds `host:P`, which the kernel prefers for datagrams addressed to
/// it exactly; answers leave from that socket, so their source address is the host LOCATION
/// names (the bridge ignores answers whose LOCATION points elsewhere).
///
/// Safety: a TV on a loopback host answers only loopback senders and notifies only loopback
/// addresses, so a test can never talk to the workplace network.
extension SimHost {
    /// Runs the TV's UDP set-up (its SSDP responder, its Wake-on-LAN listener); when that fails,
    /// stops everything started so far before rethrowing, so a TV that cannot start leaks nothing.
    func startUDP(_ setUp: () throws -> Void) async throws {
        do {
            try setUp()
        } catch {
            await stop()
            throw error
        }
    }

    /// Answers searches on UDP `requested` (nil: no responder) while `silent()` is false.
    func startSSDP(
        on requested: UInt16?, _ advert: SimSSDPAdvert, silent: @escaping @Sendable () -> Bool
    ) throws {
        guard let requested else { return }
        let (shared, own) = try bindShared(requested)
        noteSSDPPort(shared.localAddress.port)
        spawn { await SimSSDP.answerSearches(on: shared, replyingFrom: own, advert, silent: silent) }
        spawn { await SimSSDP.answerSearches(on: own, replyingFrom: own, advert, silent: silent) }
    }

    /// The shared `0.0.0.0:P` and the TV's own `host:P`, both with SO_REUSEADDR/SO_REUSEPORT
    /// and both closed at `stop()`. Port 0: the shared socket gets a port from the kernel, and
    /// the TV's own joins it.
    func bindShared(_ requested: UInt16) throws -> (shared: UDPSocket, own: UDPSocket) {
        let shared = try UDPSocket.bind(host: "0.0.0.0", port: requested, reuse: true)
        adopt(shared)
        let own = try UDPSocket.bind(host: address, port: shared.localAddress.port, reuse: true)
        adopt(own)
        return (shared, own)
    }

    /// Listens on UDP `requested` (nil: not at all) for magic packets to one of `macs`
    /// (lowercase); `woken` gets the MAC and the sender.
    func startWakeOnLAN(
        on requested: UInt16?, macs: [String], woken: @escaping @Sendable (String, SocketAddress) -> Void
    ) throws {
        guard let requested else { return }
        let socket = try UDPSocket.bind(host: "0.0.0.0", port: requested, reuse: true)
        adopt(socket)
        noteWOLPort(socket.localAddress.port)
        spawn { await SimSSDP.listenForMagicPackets(on: socket, macs: macs, matched: woken) }
    }

    /// Sends NOTIFY ssdp:alive to `target` (nil: nowhere), at start and when woken.
    func announce(_ advert: SimSSDPAdvert, to target: String?) {
        guard let target else { return }
        spawn { await SimSSDP.announce(advert, to: target) }
    }
}
