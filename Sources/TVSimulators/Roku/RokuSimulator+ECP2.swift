import Clients
import Net
import Wire

/// ECP-2 on `/ecp-session` (tv-protocols §B): the challenge, the check of its answer, then
/// `request-events`, `key-press`/`key-down`/`key-up`, `launch` and the queries. Keys sent
/// this way work in Limited mode (as the official app's do); they are logged like HTTP ones,
/// with `"via": "ecp-2"`.
extension RokuSimulator {
    static let ecp2Queries: Set<String> = ["device-info", "apps", "active-app", "media-player"]

    /// Set while an authenticated session's request is answered: `record` keeps the entries
    /// here, and the session's writer logs them once the answer is written (`ECP2Outgoing`).
    @TaskLocal static var heldLog: ECP2LogHold?

    /// Whether `/ecp-session` is served right now (tests switch it to stand for older firmware).
    public var ecp2Enabled: Bool { core.withLock { $0.ecp2.enabled } }

    /// Open, authenticated sessions.
    public var ecp2SessionCount: Int { core.withLock { $0.ecp2.peers.count } }

    /// Turns ECP-2 on or off at run time; off closes every session and answers new upgrades
    /// 404, like firmware without ECP-2.
    public func setECP2(_ enabled: Bool) {
        core.withLock { $0.ecp2.enabled = enabled }
        if !enabled { dropECP2Sessions() }
    }

    /// Closes every session (the TV's network blipped); clients may connect again.
    public func dropECP2Sessions() {
        let connections = core.withLock { core in core.ecp2.peers.values.map(\.connection) }
        for connection in connections {
            Task { _ = try? await connection.close(code: WebSocketCloseCode.goingAway, reason: "session dropped") }
        }
    }

    func acceptsECP2(_ request: HTTPRequest) -> Bool {
        guard WebSocketServerHandshake.isUpgradeRequest(request) else { return false }
        let path = request.path.split(separator: "?").first.map(String.init) ?? ""
        return path == "/ecp-session" && core.withLock { $0.ecp2.enabled && !common.isStopped && !$0.state.silent }
    }

    func serveECP2(_ request: HTTPRequest, on stream: any ByteStream, leftover: [UInt8]) async {
        let connection: WebSocketConnection
        do {
            connection = try await WebSocketServerHandshake.upgrade(
                stream: stream, request: request, leftover: leftover, subprotocols: ["ecp-2"],
                requireSubprotocol: true
            ).connection
        } catch {
            return  // refused with 400 (no ecp-2 subprotocol…) and closed by the handshake
        }
        let (outbox, sink) = AsyncStream.makeStream(of: ECP2Outgoing.self)
        let writer = Task {
            for await message in outbox {
                let sent = (try? await connection.send(text: message.text)) != nil
                for entry in message.heldLog { log.append(entry) }  // the TV read it, answered or not
                if !sent { return }
            }
        }
        let challenge = Base64.encode(SecureRandom.bytes(16))
        sink.yield(
            ECP2Outgoing(
                ECP2Message.notify("authenticate", ["param-challenge": challenge, "timestamp": "0.000"]).serialized()))
        var peer: Int?
        for await incoming in connection.incoming {
            guard case .text(let text) = incoming else { continue }
            // Whatever a client sends, the TV does not trap: what is not a request is ignored.
            guard let message = try? ECP2Message.parse(text), case .request(let name, let id) = message.kind else {
                continue
            }
            if let peer {
                let hold = ECP2LogHold()
                let response = Self.$heldLog.withValue(hold) { answer(name, id: id, message, peer: peer) }
                sink.yield(ECP2Outgoing(response.serialized(), heldLog: hold.entries))
                continue
            }
            guard name == "authenticate" else {
                sink.yield(
                    ECP2Outgoing(ECP2Message.response(name, id: id, status: 401, message: "Unauthorized").serialized()))
                continue
            }
            let expected = ECP2Authentication.response(
                challenge: challenge, key: options.ecp2Key ?? ECP2Authentication.key, sha1: Digest.sha1)
            guard message["param-response"] == expected else {
                record("ecp2-auth", ["refused": "wrong response"])
                sink.yield(
                    ECP2Outgoing(ECP2Message.response(name, id: id, status: 401, message: "Unauthorized").serialized()))
                sink.finish()
                await writer.value
                _ = try? await connection.close(
                    code: WebSocketCloseCode.policyViolation, reason: "authentication failed")
                return
            }
            peer = register(sink, connection)
            record("ecp2-auth", ["client": .string(message["param-client-friendly-name"] ?? "")])
            sink.yield(ECP2Outgoing(ECP2Message.response(name, id: id, status: 200).serialized()))
        }
        if let peer { _ = core.withLock { $0.ecp2.peers.removeValue(forKey: peer) } }
        sink.finish()
        await writer.value
    }

    private func register(_ sink: AsyncStream<ECP2Outgoing>.Continuation, _ connection: WebSocketConnection) -> Int {
        core.withLock { core in
            core.ecp2.nextPeer += 1
            core.ecp2.peers[core.ecp2.nextPeer] = ECP2Core.Peer(outbox: sink, connection: connection)
            return core.ecp2.nextPeer
        }
    }

    /// The response to one request of an authenticated session.
    private func answer(_ name: String, id: String, _ message: ECP2Message, peer: Int) -> ECP2Message {
        switch name {
        case "request-events":
            let list = (message["param-events"] ?? "").split(separator: ",")
            core.withLock { core in
                for item in list {
                    let event = item.filter { $0 != " " }
                    if event.hasPrefix("-") {
                        core.ecp2.peers[peer]?.events.remove(String(event.dropFirst()))
                    } else {
                        core.ecp2.peers[peer]?.events.insert(event.hasPrefix("+") ? String(event.dropFirst()) : event)
                    }
                }
            }
            return .response(name, id: id, status: 200)
        case "key-press", "key-down", "key-up":
            let raw = message["param-key"] ?? ""
            let decoded = (try? PercentEncoding.decode(raw)) ?? raw
            let command = ["key-press": "keypress", "key-down": "keydown", "key-up": "keyup"][name] ?? "keypress"
            return .response(name, id: id, status: key(decoded, raw: raw, kind: command, viaECP2: true).status)
        case "launch":
            guard let app = message["param-channel-id"] else {
                return .response(name, id: id, status: 400, message: "missing param-channel-id")
            }
            var parameters: [(name: String, value: String)] = []
            if let text = message["param-params"] {
                guard let object = (try? JSONParser.parse(text))?.objectValue else {
                    return .response(name, id: id, status: 400, message: "param-params is not a JSON object")
                }
                for (key, value) in object.sorted(by: { $0.key < $1.key }) {
                    if let text = value.stringValue { parameters.append((key, text)) }
                }
            }
            return .response(name, id: id, status: launch(app, parameters: parameters, viaECP2: true).status)
        case _ where name.hasPrefix("query-") && Self.ecp2Queries.contains(String(name.dropFirst(6))):
            guard let document = document(String(name.dropFirst(6))) else {
                return .response(name, id: id, status: 404, message: "Not Found")
            }
            return .response(name, id: id, status: 200, content: Array(document.utf8))
        default:
            return .response(name, id: id, status: 400, message: "unknown request")
        }
    }
}
