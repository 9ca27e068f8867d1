import Clients
import Net
import Synchronization
import TVSimulators
import Testing
import Wire

/// Options for a simulated Samsung on free loopback ports.
func samsungOptions(
    pairing: SamsungPairingMode = .accept, frame: Bool = false, apps: Bool = true
) -> SamsungSimulatorOptions {
    SamsungSimulatorOptions(
        host: "127.0.0.1", portWS: 0, portWSS: 0, portUPnP: 0, pairing: pairing, frame: frame, apps: apps,
        promptTimeout: .seconds(3))
}

/// Starts a simulated Samsung, runs `body` with a REST client, and stops it even when `body` throws.
func withSamsung(
    _ options: SamsungSimulatorOptions = samsungOptions(), log: CommandLog = .memory(),
    _ body: (SamsungSimulator, HTTPClient, CommandLog) async throws -> Void
) async throws {
    let simulator = try await SamsungSimulator.start(options, log: log)
    try await withHTTPClient(simulator, port: simulator.portWS, host: simulator.host, log: log, body)
}

/// One remote-channel connection, its events collected in the background as parsed JSON.
final class RemoteChannel: Sendable {
    let connection: WebSocketConnection
    let fingerprint: [UInt8]?
    private let events = Mutex<[JSONValue]>([])
    private let ended = Mutex<WebSocketCloseReason?>(nil)
    private let reader = Mutex<Task<Void, Never>?>(nil)

    private init(_ connected: WebSocketClient.Connected) {
        connection = connected.connection
        fingerprint = connected.peerCertificateSHA256
    }

    /// Connects to `sim`'s remote channel: wss on `portWSS` when `secure`, else ws on `portWS`.
    static func open(
        _ sim: SamsungSimulator, secure: Bool = true, name: String = "tv2mqtt", token: String? = nil,
        path: String = "/api/v2/channels/samsung.remote.control"
    ) async throws -> RemoteChannel {
        var items = [("name", Base64.encode(Array(name.utf8)))]
        if let token { items.append(("token", token)) }
        let scheme = secure ? "wss" : "ws"
        let port = secure ? sim.portWSS : sim.portWS
        let url =
            "\(scheme)://\(sim.host):\(port)\(path)?"
            + PercentEncoding.buildQuery(items)
        // The simulator is under test, not the client's deadlines: they are hang bounds here.
        let connected = try await WebSocketClient.connect(
            url: url, tls: secure ? TLSConfiguration(trust: .selfSigned(pinned: nil)) : nil,
            connectTimeout: .seconds(30), handshakeTimeout: .seconds(30))
        let channel = RemoteChannel(connected)
        let task = Task { [channel] in
            for await event in channel.connection.incoming {
                switch event {
                case .text(let text):
                    if let value = try? JSONParser.parse(text) { channel.events.withLock { $0.append(value) } }
                case .binary: break
                case .closed(let reason): channel.ended.withLock { $0 = reason }
                }
            }
        }
        channel.reader.withLock { $0 = task }
        return channel
    }

    var received: [JSONValue] { events.withLock { $0 } }
    var closeReason: WebSocketCloseReason? { ended.withLock { $0 } }

    /// The first event named `name` (already received or arriving within `timeout`).
    func event(_ name: String, timeout: Duration = .seconds(30)) async -> JSONValue? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let found = received.first(where: { $0["event"]?.stringValue == name }) { return found }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// Waits until the connection has ended (or `timeout`), returning how.
    func waitClosed(timeout: Duration = .seconds(30)) async -> WebSocketCloseReason? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let reason = closeReason { return reason }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    func send(_ message: JSONValue) async throws { try await connection.send(text: message.serialized()) }

    func key(_ key: String, _ command: String = "Click") async throws {
        try await send([
            "method": "ms.remote.control",
            "params": [
                "Cmd": .string(command), "DataOfCmd": .string(key), "Option": "false",
                "TypeOfRemote": "SendRemoteKey",
            ],
        ])
    }

    func close() async {
        _ = try? await connection.close()
        let task = reader.withLock { $0 }
        await task?.value
    }
}

/// A SOAP request to the simulator's RenderingControl.
func upnp(_ sim: SamsungSimulator, _ action: String, _ arguments: String = "") async throws -> HTTPResponse {
    let client = HTTPClient(host: sim.host, port: sim.portUPnP, requestTimeout: .seconds(15))
    let body =
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\">"
        + "<s:Body><u:\(action) xmlns:u=\"urn:schemas-upnp-org:service:RenderingControl:1\">"
        + "<InstanceID>0</InstanceID><Channel>Master</Channel>\(arguments)</u:\(action)></s:Body></s:Envelope>"
    let response = try await client.request(
        "POST", "/upnp/control/RenderingControl1",
        headers: [
            "Content-Type": "text/xml; charset=\"utf-8\"",
            "SOAPACTION": "\"urn:schemas-upnp-org:service:RenderingControl:1#\(action)\"",
        ], body: Array(body.utf8))
    await client.closeIdle()
    return response
}

/// Polls `condition` until it holds or `timeout` passes; whether it held.
func eventually(timeout: Duration = .seconds(30), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// `eventually` for a condition that must ask over the network (a listener closing or opening).
func eventually(timeout: Duration = .seconds(30), _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return await condition()
}
