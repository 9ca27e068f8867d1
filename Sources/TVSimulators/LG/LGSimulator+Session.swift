import Clients
import Net
import Wire

/// One SSAP connection: the WebSocket, its outbox (one writer, so answers and pushes leave in
/// the order they were decided), and the message loop.
///
/// Every message is handled under the state's lock, from reading it to queueing its answer and
/// the pushes it causes, so two connections never see changes in different orders.
extension LGSimulator {
    /// What one connection has done so far.
    struct Connection {
        let session: Int
        let secure: Bool
        /// The client key this connection registered with.
        var clientKey: String?
        /// A registration waiting for the PIN (`pairing/setPin`): the register message's id.
        var pinFor: JSONValue?
    }

    /// Why a message is refused: the SSAP `error` text and, for refused arguments, `errorText`.
    struct Failure: Error {
        let error: String
        var errorText: String?

        static let badRequest = Failure(error: "400 bad request")
        static let unauthorized = Failure(error: "401 insufficient permissions")
        static let denied = Failure(error: "403 User denied access")
        static let unknown = Failure(error: "404 no such service or method")
        static func refused(_ why: String) -> Failure { Failure(error: "500 Application error", errorText: why) }
    }

    func ssapSession(_ request: HTTPRequest, stream: any ByteStream, leftover: [UInt8], secure: Bool) async {
        guard
            let accepted = try? await WebSocketServerHandshake.upgrade(
                stream: stream, request: request, leftover: leftover)
        else { return }
        let ws = accepted.connection
        let (outbox, continuation) = AsyncStream.makeStream(of: String.self)
        let session = core.withLock { core -> Int? in
            guard !common.isStopped else { return nil }
            core.nextSession += 1
            core.sessions[core.nextSession] = Session(outbox: continuation, secure: secure)
            return core.nextSession
        }
        guard let session else {
            _ = try? await ws.close()
            return
        }
        let writer = Task {
            for await text in outbox { try? await ws.send(text: text) }
        }
        var connection = Connection(session: session, secure: secure)
        for await event in ws.incoming {
            guard case .text(let text) = event else {
                if case .closed = event { break }
                continue  // binary frames mean nothing to SSAP
            }
            core.withLock { core in
                handle(text, &connection, &core)
                publish(&core)
            }
        }
        core.withLock { _ = $0.sessions.removeValue(forKey: session) }
        continuation.finish()
        await writer.value
    }

    private func handle(_ text: String, _ connection: inout Connection, _ core: inout Core) {
        guard let message = try? JSONParser.parse(text), let fields = message.objectValue else {
            send(.null, .failure(.badRequest), to: connection.session, &core)
            return
        }
        let id = fields["id"] ?? .null
        let payload: [String: JSONValue]
        switch fields["payload"] {
        case nil, .null?: payload = [:]
        case .object(let members)?: payload = members
        default:
            send(id, .failure(.badRequest), to: connection.session, &core)
            return
        }
        switch fields["type"]?.stringValue {
        case "hello":
            send(["type": "hello", "id": id, "payload": LGDocuments.hello(identity)], to: connection.session, &core)
        case "register":
            register(id, payload, &connection, &core)
        case let type? where ["request", "subscribe", "unsubscribe"].contains(type):
            // An unsubscribe names its subscription by id; the uri is optional there.
            guard let uri = fields["uri"]?.stringValue ?? (type == "unsubscribe" ? "ssap://" : nil) else {
                send(id, .failure(.badRequest), to: connection.session, &core)
                return
            }
            if uri == Self.setPinURI {
                setPin(id, payload, &connection, &core)
                return
            }
            request(type, id: id, uri: uri, payload: payload, &connection, &core)
        default:
            send(id, .failure(.badRequest), to: connection.session, &core)
        }
    }

    /// Queues a message for one connection (dropped when it has gone).
    func send(_ message: JSONValue, to session: Int, _ core: inout Core) {
        core.sessions[session]?.outbox.yield(message.serialized())
    }

    /// Queues the answer to message `id`: a `response` with the payload and `returnValue`, or an
    /// `error`.
    func send(_ id: JSONValue, _ outcome: Result<[String: JSONValue], Failure>, to session: Int, _ core: inout Core) {
        send(Self.answer(id, outcome), to: session, &core)
    }

    static func answer(_ id: JSONValue, _ outcome: Result<[String: JSONValue], Failure>) -> JSONValue {
        switch outcome {
        case .success(var payload):
            payload["returnValue"] = true
            return ["type": "response", "id": id, "payload": .object(payload)]
        case .failure(let failure):
            var payload: [String: JSONValue] = [:]
            if let why = failure.errorText {
                payload = ["returnValue": false, "errorText": .string(why)]
            }
            return ["type": "error", "id": id, "error": .string(failure.error), "payload": .object(payload)]
        }
    }
}
