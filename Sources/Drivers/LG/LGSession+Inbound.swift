import Wire

/// What the TV sends, sorted: answers to what we asked (matched by id), subscription pushes,
/// the registration's prompt or PIN screen; anything else is said at debug level and dropped,
/// never taken as state or as a success.
extension LGSession {
    enum Inbound: Equatable, Sendable {
        case answer(id: String, LGMessage)
        case push(uri: String, JSONValue)
        case registrationShown(pairingType: String?)
        /// Dropped; the debug line says why (nil: not worth one, a subscription's other messages).
        case ignored(String?)
    }

    /// Sorts `text`; `awaited` says whether a request still waits on an id.
    func route(_ text: String, awaited: (String) -> Bool) -> Inbound {
        let message: LGMessage
        do {
            message = try LGMessage.decode(Array(text.utf8))
        } catch {
            return .ignored("ignored an SSAP message: \(error.message)")
        }
        guard let id = message.id else { return .ignored("ignored an SSAP message without an id: \(message)") }
        if let uri = subscriptions[id], !awaited(id) {
            return message.type == "response" ? .push(uri: uri, message.payload) : .ignored(nil)
        }
        if id == LGRegistration.id, message.type == "response" {
            return .registrationShown(pairingType: message.payload["pairingType"]?.stringValue)
        }
        guard awaited(id) else { return .ignored("ignored an SSAP \(message) that answers nothing asked") }
        // Only these answer: an unknown type carrying our id is not taken as a success.
        guard ["response", "error", "registered"].contains(message.type) else {
            return .ignored("ignored an SSAP \(message) of an unknown type")
        }
        return .answer(id: id, message)
    }
}
