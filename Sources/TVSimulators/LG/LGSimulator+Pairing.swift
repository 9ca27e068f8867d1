import Net
import Wire

/// Registration: a known client key registers silently; any other client meets the prompt or
/// the PIN screen, settled by `options.approval` (aiowebostv's and lgtv2's handshake).
extension LGSimulator {
    static let setPinURI = "ssap://pairing/setPin"

    func register(_ id: JSONValue, _ payload: [String: JSONValue], _ connection: inout Connection, _ core: inout Core) {
        let session = connection.session
        if let key = connection.clientKey {
            send(registered(id, key), to: session, &core)
            return
        }
        if let key = payload["client-key"]?.stringValue, core.clientKeys.contains(key) {
            connection.clientKey = key
            record("pairing", ["action": "silent"])
            send(registered(id, key), to: session, &core)
            return
        }
        let pin = options.pairing == .pin || payload["pairingType"]?.stringValue == "PIN"
        send(id, .success(["pairingType": pin ? "PIN" : "PROMPT"]), to: session, &core)
        if pin {
            record("pairing", ["action": "pin", "pin": .string(options.pin)])
            connection.pinFor = id
            return
        }
        record("pairing", ["action": "prompt"])
        settle(id, &connection, &core)
    }

    /// `pairing/setPin` while the PIN shows: the right PIN registers, a wrong one ends the
    /// registration as a denial would.
    func setPin(_ id: JSONValue, _ payload: [String: JSONValue], _ connection: inout Connection, _ core: inout Core) {
        guard let registerID = connection.pinFor else {
            send(id, .failure(.refused("no PIN is being asked for")), to: connection.session, &core)
            return
        }
        let typed = payload["pin"].map { $0.stringValue ?? $0.serialized() }
        guard options.approval != .approve || typed == options.pin else {
            record("pairing", ["action": "wrong_pin"])
            connection.pinFor = nil
            send(registerID, .failure(.denied), to: connection.session, &core)
            return
        }
        if options.approval == .approve { send(id, .success([:]), to: connection.session, &core) }
        connection.pinFor = nil
        settle(registerID, &connection, &core)
    }

    /// What the "user" does with the prompt or the PIN screen.
    private func settle(_ registerID: JSONValue, _ connection: inout Connection, _ core: inout Core) {
        switch options.approval {
        case .approve:
            var key = Digest.hex(SecureRandom.bytes(16))
            while core.clientKeys.contains(key) { key = Digest.hex(SecureRandom.bytes(16)) }
            core.clientKeys.append(key)
            connection.clientKey = key
            record("pairing", ["action": "approved"])
            send(registered(registerID, key), to: connection.session, &core)
        case .deny:
            record("pairing", ["action": "denied"])
            send(registerID, .failure(.denied), to: connection.session, &core)
        case .ignore:
            record("pairing", ["action": "ignored"])
        }
    }

    private func registered(_ id: JSONValue, _ key: String) -> JSONValue {
        ["type": "registered", "id": id, "payload": ["client-key": .string(key)]]
    }
}
