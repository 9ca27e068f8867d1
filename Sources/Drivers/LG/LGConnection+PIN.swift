import Wire

/// PIN pairing: the TV answers the registration with its PIN screen instead of the prompt; the
/// user reads the PIN on the TV and tv2mqtt sends it (`pairing/setPin`); `registered` follows,
/// or an error on the registration for a wrong PIN. The PIN is never logged.
extension LGConnection {
    static let setPinURI = "ssap://pairing/setPin"

    /// Sends `pin` to the PIN screen a `pair()` left showing on the open connection, or
    /// registers again asking for the PIN screen and sends it as soon as the screen shows.
    func pair(pin: String) async throws(DriverError) {
        if session.pinShown, rpc.isConnected {
            let answer: LGMessage
            do throws(DriverError) {
                answer = try await sendPIN(pin)
            } catch {
                try refuseRegistration(error, byPIN: true, hadKey: false)
            }
            try accept(answer)
            return
        }
        session.pinToSend = pin
        defer { session.pinToSend = nil }
        try await pair()
    }

    /// `pairing/setPin`, then the registration's answer: `registered`, or an error for a wrong PIN.
    func sendPIN(_ pin: String) async throws(DriverError) -> LGMessage {
        session.sendingPIN()
        let request = LGMessage.encode(
            type: "request", id: takeID(), uri: Self.setPinURI, payload: ["pin": .string(pin)])
        return try await exchange(id: LGRegistration.id, request)
    }
}
