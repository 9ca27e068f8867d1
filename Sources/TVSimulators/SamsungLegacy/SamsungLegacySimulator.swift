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
        var connections: [TCPConnection] = []
        var on = true
        /// Answers the prompt gave, by client id (the TV remembers them).
        var answers: [String: Bool] = [:]
    }

    let options: SamsungLegacySimulatorOptions
    /// SSDP, Wake-on-LAN, the encrypted model's REST port, background tasks and the command
    /// log (`SimHost`); the legacy remote port is this TV's own (not HTTP).
    let common: SimHost
    let core = Mutex(Core())
    public let port: UInt16
    public var host: String { options.host }
    public let name: String
    public var ssdpPort: UInt16? { common.ssdpPort }
    /// The Wake-on-LAN listener's port; nil without one.
    public var wolPort: UInt16? { common.wolPort }
    public var isOn: Bool { core.withLock { $0.on } }
    /// "uuid:…", stable per host.
    public var udn: String {
        let octets = options.host.split(separator: ".").compactMap { UInt8($0) }
        let tail = octets.map { String($0, radix: 16) }.joined()
        return "uuid:0ee6b281-00c8-1000-b6e6-\(String(repeating: "0", count: max(0, 12 - tail.count)))\(tail)"
    }

    private init(options: SamsungLegacySimulatorOptions, log: CommandLog, port: UInt16) {
        self.options = options
        self.port = port
        name = options.name ?? "[TV] Samsung LE40C650 \(options.host.split(separator: ".").last ?? "")"
        common = SimHost(address: options.host, label: name, log: log)
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
    public var restPort: UInt16? { common.port(of: Service.rest) }

    /// The encrypted model's one HTTP service, named for `SimHost`.
    enum Service: String, Sendable {
        case rest
    }

    /// Someone switched the TV on with its own remote: the remote port listens again.
    public func powerOn() throws {
        guard !isOn, !options.encrypted else { return }
        serve(try TCPListener.bind(host: options.host, port: port))
        core.withLock { $0.on = true }
    }

    public func stop() async {
        await common.stop {
            core.withLock { core in
                core.listener?.close()
                for connection in core.connections { connection.close() }
            }
        }
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
                    guard !common.isStopped else { return false }
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

    func record(_ kind: String, _ fields: [String: JSONValue]) { common.record(kind, fields) }

    /// Runs a background task that `stop()` cancels and awaits.
    func spawn(_ work: @escaping @Sendable () async -> Void) { common.spawn(work) }
}
