import TVModel

/// Held keys on the remote channel (README › MQTT topics and commands, `key`): `Press`, a pause,
/// `Release`, sent in order by the channel's I/O queue. The channel remembers a key that is down,
/// so a shutdown during the pause still sends its `Release` before the connection closes. A
/// connection that dropped takes its held key with it: the TV forgets a client's keys when it goes
/// (the simulator does the same), and there is no connection left to send a `Release` on.
extension SamsungChannel {
    func noteSent(_ message: SamsungRemoteMessage) {
        guard case .key(let code, let action) = message else { return }
        switch action {
        case .press: heldKey = code
        case .release: heldKey = nil
        case .click: break
        }
    }

    /// Sends the `Release` of a key still down (before a shutdown closes the channel).
    func releaseHeldKey() async {
        guard let code = heldKey, let connection = rpc.connection else { return }
        heldKey = nil
        logger.debug("releasing \(code) before closing")
        try? await connection.send(text: SamsungRemoteMessage.key(code, .release).text)
    }
}

extension SamsungCommandSteps {
    /// `Press`, `milliseconds` of pause, `Release` of one remote key; the power keys are the
    /// power logic and are not held this way (a Frame's long power press is `power OFF`).
    public static func hold(_ key: TVKey, milliseconds: Int) throws(CommandRejection) -> [SamsungRemoteStep] {
        guard case .remote(let code) = try SamsungKeys.resolve(key), code != "KEY_POWER" else {
            throw CommandRejection("key \"\(key)\" cannot be held; use power ON/OFF")
        }
        return [.message(.key(code, .press)), .pause(.milliseconds(milliseconds)), .message(.key(code, .release))]
    }
}
