import Net
import Support
import Synchronization
import Wire

/// A simulated pre-2016 Samsung on real sockets: the legacy remote protocol on TCP `port`
/// (55000) with its allow prompt, an SSDP responder for RemoteControlReceiver:1, and no Tizen
/// REST API. Power off (`KEY_POWEROFF`) closes the port, as the real TV's network goes down;
/// `powerOn()` (a person with the remote) opens it again. Every key is logged as `legacy_key`.
///
/// With `encrypted`, a 2014–2015 H/J model instead: `GET /ms/1.0/` answers, nothing else.
public final class SamsungLegacySimulator: Sendable {
    struct Core {
        var listener: TCPListener?
        var rest: SimHTTPServer?
        var connections: [TCPConnection] = []
        var background: [Task<Void, Never>] = []
        var sockets: [UDPSocket] = []
        var ssdpPort: UInt16?
        var wolPort: UInt16?
        var on = true
        var stopped = false
        /// Answers the prompt gave, by client id (the TV remembers them).
        var answers: [String: Bool] = [:]
    }

    let options: SamsungLegacySimulatorOptions
    let log: CommandLog
    let core = Mutex(Core())
    public let port: UInt16
    public var host: String { options.host }
    public let name: String
    public var ssdpPort: UInt16? { core.withLock { $0.ssdpPort } }
    /// The Wake-on-LAN listener's port; nil without one.
    public var wolPort: UInt16? { core.withLock { $0.wolPort } }
    public var isOn: Bool { core.withLock { $0.on } }
    /// "uuid:…", stable per host.
    public var udn: String {
        let octets = options.host.split(separator: ".").compactMap { UInt8($0) }
        let tail = octets.map { String($0, radix: 16) }.joined()
        return "uuid:0ee6b281-00c8-1000-b6e6-\(String(repeating: "0", count: max(0, 12 - tail.count)))\(tail)"
    }

    private init(options: SamsungLegacySimulatorOptions, log: CommandLog, port: UInt16) {
        self.options = options
        self.log = log
        self.port = port
        name = options.name ?? "[TV] Samsung LE40C650 \(options.host.split(separator: ".").last ?? "")"
    }

    public static func start(_ options: SamsungLegacySimulatorOptions, log: CommandLog) async throws
        -> SamsungLegacySimulator
    {
        if options.encrypted {
            let simulator = SamsungLegacySimulator(options: options, log: log, port: 0)
            try simulator.startEncryptedREST()
            try simulator.startSSDP()
            return simulator
        }
        let listener = try TCPListener.bind(host: options.host, port: options.port)
        let simulator = SamsungLegacySimulator(options: options, log: log, port: listener.address.port)
        simulator.serve(listener)
        try simulator.startSSDP()
        try simulator.startWakeOnLAN()
        return simulator
    }

    /// The REST port of an `encrypted` model.
    public var restPort: UInt16? { core.withLock { $0.rest?.port } }

    /// Someone switched the TV on with its own remote: the remote port listens again.
    public func powerOn() throws {
        guard !isOn, !options.encrypted else { return }
        serve(try TCPListener.bind(host: options.host, port: port))
        core.withLock { $0.on = true }
    }

    public func stop() async {
        let (tasks, rest) = core.withLock { core -> ([Task<Void, Never>], SimHTTPServer?) in
            core.stopped = true
            core.listener?.close()
            for connection in core.connections { connection.close() }
            for socket in core.sockets { socket.close() }
            return (core.background, core.rest)
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        await rest?.stop()
    }

    func powerOff() {
        record("power", ["power": "off"])
        core.withLock { core in
            core.on = false
            core.listener?.close()
            core.listener = nil
            for connection in core.connections { connection.close() }
            core.connections.removeAll()
        }
    }

    private func serve(_ listener: TCPListener) {
        core.withLock { $0.listener = listener }
        spawn { [self] in
            while !Task.isCancelled {
                guard let connection = try? await listener.accept() else { return }
                let keep = core.withLock { core -> Bool in
                    guard !core.stopped else { return false }
                    core.connections.removeAll { $0.isClosed }
                    core.connections.append(connection)
                    return true
                }
                guard keep else {
                    connection.close()
                    return
                }
                spawn { [self] in await session(connection) }
            }
        }
    }

    func record(_ kind: String, _ fields: [String: JSONValue]) {
        var entry = fields
        entry["tv"] = .string(name)
        entry["host"] = .string(options.host)
        entry["kind"] = .string(kind)
        entry["at"] = .number((wallClockSeconds() * 1_000_000).rounded() / 1_000_000)
        log.append(.object(entry))
    }

    /// Runs a background task that `stop()` cancels and awaits.
    func spawn(_ work: @escaping @Sendable () async -> Void) {
        core.withLock { core in
            guard !core.stopped else { return }
            core.background.removeAll { $0.isCancelled }
            core.background.append(Task { await work() })
        }
    }
}
