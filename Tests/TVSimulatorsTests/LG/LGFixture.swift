import Clients
import Net
import Synchronization
import TVSimulators
import TestSupport
import Testing
import Wire

/// Options for a simulated LG on free loopback ports.
func lgOptions(
    pairing: LGPairingMode = .prompt, approval: LGApproval = .approve, plain: Bool = false
) -> LGSimulatorOptions {
    var options = LGSimulatorOptions(host: "127.0.0.1", portWS: 0, portWSS: 0, portUPnP: 0)
    options.pairing = pairing
    options.approval = approval
    options.plain = plain
    return options
}

/// Starts a simulated LG, runs `body` with an HTTP client on its port 3000 (icons,
/// `/sim/state`), and stops it even when `body` throws.
func withLG(
    _ options: LGSimulatorOptions = lgOptions(), log: CommandLog = .memory(),
    _ body: (LGSimulator, HTTPClient, CommandLog) async throws -> Void
) async throws {
    // Out of the first seconds' burst of short tests with tight deadlines (each LG test makes a
    // certificate and several TLS handshakes): in the whole suite the burst starved them past 5 s.
    await afterStartupBurst()
    let simulator = try await LGSimulator.start(options, log: log)
    try await withHTTPClient(simulator, port: simulator.portWS, host: simulator.host, log: log, body)
}

/// One SSAP connection with the project's WebSocket client, its messages collected in the
/// background as parsed JSON.
final class SSAPTestClient: Sendable {
    let connection: WebSocketConnection
    let fingerprint: [UInt8]?
    private let messages = Mutex<[JSONValue]>([])
    /// Every text frame as it came, JSON or not.
    private let texts = Mutex<[String]>([])
    private let ended = Mutex<WebSocketCloseReason?>(nil)
    private let reader = Mutex<Task<Void, Never>?>(nil)

    private init(_ connected: WebSocketClient.Connected) {
        connection = connected.connection
        fingerprint = connected.peerCertificateSHA256
    }

    /// Connects to `url` (wss with any self-signed certificate).
    static func open(url: String) async throws -> SSAPTestClient {
        let secure = url.hasPrefix("wss:")
        // The simulator is under test, not the client's deadlines: they are hang bounds here.
        let connected = try await WebSocketClient.connect(
            url: url, tls: secure ? TLSConfiguration(trust: .selfSigned(pinned: nil)) : nil,
            connectTimeout: .seconds(30), handshakeTimeout: .seconds(30))
        let client = SSAPTestClient(connected)
        let task = Task { [client] in
            for await event in client.connection.incoming {
                switch event {
                case .text(let text):
                    client.texts.withLock { $0.append(text) }
                    if let value = try? JSONParser.parse(text) { client.messages.withLock { $0.append(value) } }
                case .binary: break
                case .closed(let reason): client.ended.withLock { $0 = reason }
                }
            }
        }
        client.reader.withLock { $0 = task }
        return client
    }

    /// SSAP on `sim`: wss on `portWSS` when `secure`, else ws on `portWS`.
    static func open(_ sim: LGSimulator, secure: Bool = true) async throws -> SSAPTestClient {
        let port = secure ? (sim.portWSS ?? 0) : sim.portWS
        return try await open(url: "\(secure ? "wss" : "ws")://\(sim.host):\(port)/")
    }

    var received: [JSONValue] { messages.withLock { $0 } }
    var receivedTexts: [String] { texts.withLock { $0 } }
    var closeReason: WebSocketCloseReason? { ended.withLock { $0 } }

    /// The messages with `id`, in order.
    func messages(id: JSONValue) -> [JSONValue] { received.filter { $0["id"] == id } }

    /// Waits until `count` messages with `id` arrived (or `timeout`); those that did.
    func waitMessages(id: JSONValue, count: Int = 1, timeout: Duration = .seconds(30)) async -> [JSONValue] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let found = messages(id: id)
            if found.count >= count { return found }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return messages(id: id)
    }

    /// The first message with `id` of `type` (within `timeout`).
    func wait(id: JSONValue, type: String, timeout: Duration = .seconds(30)) async -> JSONValue? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let found = messages(id: id).first(where: { $0["type"]?.stringValue == type }) { return found }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    func send(_ message: JSONValue) async throws { try await connection.send(text: message.serialized()) }

    /// Sends `register` (with `key` when given) as aiowebostv does.
    func register(key: String? = nil, pairingType: String = "PROMPT", id: JSONValue = "register_0") async throws {
        var payload: [String: JSONValue] = [
            "forcePairing": false, "pairingType": .string(pairingType),
            "manifest": ["manifestVersion": 1, "permissions": ["LAUNCH", "CONTROL_AUDIO"]],
        ]
        if let key { payload["client-key"] = .string(key) }
        try await send(["type": "register", "id": id, "payload": .object(payload)])
    }

    /// Registers and returns the client key (the simulator approves at once).
    func pair(key: String? = nil) async throws -> String {
        try await register(key: key)
        let registered = await wait(id: "register_0", type: "registered")
        return try #require(registered?["payload"]?["client-key"]?.stringValue)
    }

    /// Sends a request (or subscribe) and waits for its first answer.
    func request(
        _ uri: String, _ payload: JSONValue? = nil, id: JSONValue, type: String = "request"
    ) async throws -> JSONValue? {
        var message: [String: JSONValue] = ["type": .string(type), "id": id, "uri": .string("ssap://" + uri)]
        if let payload { message["payload"] = payload }
        try await send(.object(message))
        return await waitMessages(id: id).first
    }

    func close() async {
        _ = try? await connection.close()
        let task = reader.withLock { $0 }
        await task?.value
    }
}
