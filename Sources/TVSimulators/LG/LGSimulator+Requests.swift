import Net
import Wire

/// Requests, subscriptions and the pushes: what a registered connection may ask, logged as
/// kind `ssap`.
extension LGSimulator {
    func request(
        _ type: String, id: JSONValue, uri: String, payload: [String: JSONValue], _ connection: inout Connection,
        _ core: inout Core
    ) {
        let session = connection.session
        var entry: [String: JSONValue] = ["uri": .string(uri), "type": .string(type)]
        if !payload.isEmpty { entry["payload"] = .object(payload) }
        let outcome = answer(type, id: id, uri: uri, payload: payload, connection, &core)
        if case .failure(let failure)? = outcome { entry["error"] = .string(failure.error) }
        record("ssap", entry)
        guard let outcome else { return }
        guard connection.clientKey != nil, let fault = core.fault else {
            send(id, outcome, to: session, &core)
            return
        }
        var message = Self.answer(id, outcome)
        switch fault {
        case .garbage:
            core.sessions[session]?.outbox.yield("}{ not json")
            return
        case .huge(let size):
            if case .object(var fields) = message, case .object(var payload)? = fields["payload"] {
                payload["junk"] = .string(String(repeating: "x", count: size))
                fields["payload"] = .object(payload)
                message = .object(fields)
            }
        case .unknownIDs:
            if case .object(var fields) = message {
                fields["id"] = .string("unknown-\(Digest.hex(SecureRandom.bytes(4)))")
                message = .object(fields)
            }
        case .unknownType:
            if case .object(var fields) = message {
                fields["type"] = "bogus"
                message = .object(fields)
            }
        case .pointerHost: break
        }
        send(message, to: session, &core)
    }

    /// The answer to one request, subscribe or unsubscribe (nil: none is sent).
    private func answer(
        _ type: String, id: JSONValue, uri: String, payload: [String: JSONValue], _ connection: Connection,
        _ core: inout Core
    ) -> Result<[String: JSONValue], Failure>? {
        guard uri.hasPrefix("ssap://") else { return .failure(connection.clientKey == nil ? .unauthorized : .unknown) }
        let path = String(uri.dropFirst("ssap://".count))
        // Newer webOS answers the system info before registration (aiowebostv asks for it first).
        guard connection.clientKey != nil || (type == "request" && path == Self.openBeforeRegistration) else {
            return .failure(.unauthorized)
        }
        let secure = connection.secure
        switch type {
        case "unsubscribe":
            core.sessions[connection.session]?.subscriptions.removeAll { $0.id == id }
            return nil
        case "subscribe":
            guard let reading = read(path, core.state, secure: secure) else { return .failure(.unknown) }
            // Subscribed away from what it reads (the channel outside Live TV): pushes come later.
            var payload = (try? reading.get()) ?? [:]
            payload["subscribed"] = true
            var pushed = payload
            pushed["returnValue"] = true
            core.sessions[connection.session]?.subscriptions.removeAll { $0.id == id }
            core.sessions[connection.session]?.subscriptions.append(
                Subscription(id: id, uri: path, last: JSONValue.object(pushed).serialized()))
            return .success(payload)
        default:
            if let reading = read(path, core.state, secure: secure) { return reading }
            return command(path, payload, connection, &core) ?? .failure(.unknown)
        }
    }

    static let openBeforeRegistration = "system/getSystemInfo"

    /// Pushes every subscription whose reading changed since it was last sent.
    func publish(_ core: inout Core) {
        let state = core.state
        for (session, entry) in core.sessions {
            for index in entry.subscriptions.indices {
                let subscription = entry.subscriptions[index]
                guard case .success(var payload)? = read(subscription.uri, state, secure: entry.secure) else {
                    continue
                }
                payload["subscribed"] = true
                payload["returnValue"] = true
                let text = JSONValue.object(payload).serialized()
                guard text != subscription.last else { continue }
                core.sessions[session]?.subscriptions[index].last = text
                send(["type": "response", "id": subscription.id, "payload": .object(payload)], to: session, &core)
            }
        }
    }
}
