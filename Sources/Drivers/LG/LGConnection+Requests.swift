import Clients
import Support
import Wire

/// Requests and subscriptions, each answered by the message with its id.
extension LGConnection {
    /// Sends a request and returns the response's payload; an `error` message or a payload
    /// with `returnValue: false` is a `.rejected` error. `prompt`: whether connecting may show
    /// the TV's pairing prompt (commands may; polls never do).
    func request(_ uri: String, _ payload: JSONValue? = nil, prompt: Bool = false)
        async throws(DriverError)
        -> JSONValue
    {
        try await ensureConnected(prompt: prompt)
        let id = takeID()
        let answer = try await exchange(
            id: id, LGMessage.encode(type: "request", id: id, uri: uri, payload: payload))
        if let refusal = answer.refusal {
            throw DriverError(.rejected, "\(uri): \(printable(refusal))")
        }
        return answer.payload
    }

    /// Subscribes to `uri`: its first answer is returned, later ones go to the push handler.
    func subscribe(_ uri: String) async throws(DriverError) -> JSONValue {
        try await ensureConnected(prompt: false)
        let id = takeID()
        session.subscribing(uri, id: id)
        let answer: LGMessage
        do {
            answer = try await exchange(id: id, LGMessage.encode(type: "subscribe", id: id, uri: uri))
        } catch {
            session.unsubscribed(id)
            throw error
        }
        if let refusal = answer.refusal {
            session.unsubscribed(id)
            throw DriverError(.rejected, "\(uri): \(printable(refusal))")
        }
        return answer.payload
    }

    /// Sends `text` and waits `requestTimeout` for the message with `id` (the registration's
    /// id is the same for the prompt and for the PIN sent after it).
    func exchange(id: String, _ text: String, timeout: Duration? = nil) async throws(DriverError)
        -> LGMessage
    {
        let waitFor = timeout ?? configuration.requestTimeout
        let answer: Result<LGMessage, DriverError>
        do {
            answer = try await rpc.call(text, awaiting: id, timeout: waitFor)
        } catch {
            throw Self.failure(error, waited: waitFor)
        }
        let message = try answer.get()
        if message.type == "error" {
            throw DriverError(
                Self.errorKind(message.error), "the TV refused: \(printable(message.error ?? "error"))")
        }
        return message
    }

    func takeID() -> String {
        defer { nextID += 1 }
        return "\(nextID)"
    }

    private static func failure(_ error: RPCError, waited: Duration) -> DriverError {
        switch error {
        case .notConnected: DriverError(.unreachable, "the TV closed the connection")
        case .sendFailed(let why): DriverError(.unreachable, "sending to the TV failed: \(why)")
        case .timeout: DriverError(.timeout, "the TV did not answer within \(waited)")
        case .closed, .cancelled: DriverError(.unreachable, "the connection closed")
        case .duplicateID: DriverError(.rejected, "\(error)")
        }
    }

    private static func errorKind(_ error: String?) -> DriverError.Kind {
        guard let error else { return .rejected }
        if error.hasPrefix("401") || error.hasPrefix("403") { return .unauthorized }
        return .rejected
    }
}
