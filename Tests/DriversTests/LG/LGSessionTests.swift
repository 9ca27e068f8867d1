import Support
import Testing
import Wire

@testable import Drivers

private let t0 = ContinuousClock.now
private let key = "0123456789abcdef0123456789abcdef"
private let pin = "aa:bb"

private func session(key: String? = nil, pin: String? = nil, allowCleartext: Bool = false) -> LGSession {
    LGSession(configuration: .init(host: "192.0.2.70", clientKey: key, pin: pin, allowCleartext: allowCleartext))
}

private func registered(_ issued: String) -> LGMessage {
    LGMessage(type: "registered", id: LGRegistration.id, payload: ["client-key": .string(issued)])
}

/// The LG session's decisions, without sockets: inputs in, actions out.
@Suite("LG session: who connects, pairing, certificates, backoff")
struct LGSessionTests {
    @Test("a poll never prompts and waits out the backoff; a command may prompt; a block says why")
    func admission() {
        var s = session()
        #expect(
            s.admission(prompt: false, connected: false)
                == .refused(DriverError(.unauthorized, LGPairingHelp.notPaired)))
        #expect(s.admission(prompt: true, connected: false) == .connect)
        s = session(key: key)
        #expect(s.admission(prompt: false, connected: true) == .ready)
        let started = s.startReconnecting(now: t0)
        #expect(started)
        #expect(s.admission(prompt: false, connected: false).isRefused(.unreachable))
        #expect(s.admission(prompt: true, connected: false) == .connect, "a user's command tries at once")
        _ = s.registrationFailed(DriverError(.unauthorized, "401"), byPIN: false, hadKey: true)
        #expect(
            s.admission(prompt: true, connected: false) == .refused(DriverError(.unauthorized, LGPairingHelp.denied)))
        s.shutDown()
        #expect(s.admission(prompt: true, connected: true).isRefused(.unreachable))
    }

    @Test("3001 refused: in clear only when allowed and never spoken TLS; the refusal said once")
    func cleartext() {
        var s = session()
        let (first, said) = s.secureFailed(.refused("refused"))
        #expect(first == .fail(DriverError(.unauthorized, LGPairingHelp.cleartextNotAllowed)))
        #expect(said == [.emit(.pairingRequired(LGPairingHelp.cleartextNotAllowed))])
        let (_, again) = s.secureFailed(.refused("refused"))
        #expect(again.isEmpty)

        var allowed = session(allowCleartext: true)
        let (fallback, warned) = allowed.secureFailed(.refused("refused"))
        #expect(fallback == .plain)
        #expect(warned.count == 1 && warned.first?.isWarning == true)

        var pinned = session(key: key, pin: pin, allowCleartext: true)
        let (never, _) = pinned.secureFailed(.refused("connection refused"))
        #expect(never == .fail(DriverError(.unreachable, "cannot connect to the TV: connection refused")))
    }

    @Test("a changed certificate blocks until pairing, and is reported with both fingerprints")
    func certificateChanged() {
        var s = session(key: key, pin: pin)
        let (fallback, actions) = s.secureFailed(.certificateChanged("pin mismatch: expected aabb, got CC:DD"))
        #expect(s.blocked == .certificateChanged(pinned: "aabb", seen: "ccdd"))
        #expect(fallback == .fail(LGSession.error(.certificateChanged(pinned: "aabb", seen: "ccdd"))))
        #expect(actions.last == .emit(.certificateChanged(pinned: "aabb", seen: "ccdd")))
        s.pair()
        #expect(s.blocked == nil && s.isPairing && s.pinToTrust == nil, "a pairing takes the certificate presented")
    }

    @Test("the registration: silent with the key, else the prompt's approval timeout, or the PIN screen")
    func registration() {
        var s = session(key: key)
        let (silent, quiet) = s.register(fingerprint: "aabb")
        #expect(silent.message == LGRegistration.message(clientKey: key))
        #expect(silent.timeout == .seconds(5) && silent.hadKey && quiet.isEmpty)
        s.pair()
        let (prompt, asked) = s.register(fingerprint: nil)
        #expect(prompt.message == LGRegistration.message(clientKey: nil) && prompt.timeout == .seconds(60))
        #expect(asked == [.info("asking the TV for permission: choose Accept on the TV")])
        s.pinToSend = "1234"
        let (byPIN, _) = s.register(fingerprint: nil)
        #expect(byPIN.byPIN && byPIN.message == LGRegistration.message(clientKey: nil, byPIN: true))
    }

    @Test("the PIN screen ends the registration's wait; the PIN goes at once when given, else the user is told")
    func pinScreen() {
        var s = session()
        let (none, prompt) = s.registrationShown(pairingType: "PROMPT")
        #expect(none == nil && prompt.count == 1 && !s.pinShown)
        let (endWait, said) = s.registrationShown(pairingType: "PIN")
        #expect(endWait?.kind == .pinRequired && s.pinShown)
        #expect(said == [.info(LGPairingHelp.pinShown)])
        let (noPIN, told) = s.pinScreen()
        #expect(noPIN == nil && told == [.emit(.pairingRequired(LGPairingHelp.pinShown))] && s.pinShown)
        s.pinToSend = "1234"
        let (given, _) = s.pinScreen()
        #expect(given == "1234" && !s.pinShown)
    }

    @Test("a failed registration: denied, wrong PIN, unanswered block with the message; anything else only closes")
    func refusals() {
        var s = session()
        let (denied, actions) = s.registrationFailed(DriverError(.unauthorized, "403"), byPIN: false, hadKey: false)
        #expect(denied == DriverError(.unauthorized, LGPairingHelp.denied))
        #expect(
            actions == [
                .close, .warn("pairing required: \(LGPairingHelp.denied)"),
                .emit(.pairingRequired(LGPairingHelp.denied)),
            ])
        s = session()
        let (wrong, _) = s.registrationFailed(DriverError(.unauthorized, "403"), byPIN: true, hadKey: false)
        #expect(wrong.message == LGPairingHelp.wrongPIN)
        s = session()
        let (unanswered, _) = s.registrationFailed(DriverError(.timeout, "60 s"), byPIN: false, hadKey: false)
        #expect(unanswered.message == LGPairingHelp.unanswered)
        s = session(key: key)
        let (lost, closed) = s.registrationFailed(DriverError(.unreachable, "gone"), byPIN: false, hadKey: true)
        #expect(lost == DriverError(.unreachable, "gone") && closed == [.close] && s.blocked == nil)
    }

    @Test("registered: a new key and the first certificate are kept and emitted; a key in clear from a TLS TV is not")
    func accepted() {
        var s = session()
        s.pair()
        _ = s.register(fingerprint: "aabb")
        let (error, actions) = s.registered(registered(key))
        #expect(error == nil)
        #expect(actions.prefix(2) == [.emit(.certificatePinned("aabb")), .emit(.token(key))])
        #expect(s.configuration.clientKey == key && s.configuration.pin == "aabb" && !s.isPairing)

        var repaired = session(key: key, pin: "aabb")
        repaired.pair()
        _ = repaired.register(fingerprint: "ccdd")
        let (_, changed) = repaired.registered(registered(key))
        #expect(changed.first?.isWarning == true, "a new certificate accepted by pairing is logged")
        #expect(changed.contains(.emit(.certificatePinned("ccdd"))) && !changed.contains(.emit(.token(key))))

        var clear = session(key: key, pin: "aabb")
        _ = clear.register(fingerprint: nil)
        let (refused, closed) = clear.registered(registered("ffffffffffffffffffffffffffffffff"))
        #expect(refused?.kind == .rejected && closed == [.close] && clear.configuration.clientKey == key)

        var junk = session()
        _ = junk.register(fingerprint: nil)
        let (bad, _) = junk.registered(registered("bad key\n"))
        #expect(bad?.kind == .badResponse)
    }

    @Test("the backoff: 1 s, doubling to the cap, again from 1 s on a wake; a block ends it")
    func backoff() {
        var s = session(key: key)
        let started = s.startReconnecting(now: t0)
        let again = s.startReconnecting(now: t0)
        #expect(started && !again, "one backoff at a time")
        #expect(s.backoff?.nextAttempt == t0 + .seconds(1))
        var waits: [Duration?] = []
        for _ in 0..<7 { waits.append(s.attemptFailed(now: t0)) }
        let doubling: [Duration?] = [2, 4, 8, 16, 32, 60, 60].map { .seconds($0) }
        #expect(waits == doubling)
        #expect(s.backoff?.nextAttempt == t0 + .seconds(60))
        let woken = s.retrySoon(now: t0 + .seconds(5))
        #expect(woken)
        #expect(s.backoff == LGSession.Backoff(delay: .seconds(1), nextAttempt: t0 + .seconds(6)))
        _ = s.registrationFailed(DriverError(.unauthorized, "401"), byPIN: false, hadKey: true)
        let afterBlock = s.attemptFailed(now: t0)
        #expect(afterBlock == nil)
        #expect(!s.shouldAttempt(connected: false))
        var unpaired = session()
        let unpairedStarted = unpaired.startReconnecting(now: t0)
        #expect(!unpairedStarted, "a TV never paired is not reconnected")
    }

    @Test("what the TV sends: answers by id, pushes on subscriptions, the PIN screen; the rest dropped")
    func inbound() {
        var s = session(key: key)
        s.subscribing("ssap://audio/getVolume", id: "3")
        let none: (String) -> Bool = { _ in false }
        let awaiting: (String) -> Bool = { $0 == "3" || $0 == "4" }
        #expect(
            s.route(#"{"type":"response","id":"3","payload":{"volume":5}}"#, awaited: none)
                == .push(uri: "ssap://audio/getVolume", ["volume": 5]))
        #expect(
            s.route(#"{"type":"response","id":"3","payload":{}}"#, awaited: awaiting)
                == .answer(id: "3", LGMessage(type: "response", id: "3")))
        #expect(
            s.route(#"{"type":"surprise","id":"4"}"#, awaited: awaiting)
                == .ignored("ignored an SSAP surprise 4 of an unknown type"))
        #expect(
            s.route(#"{"type":"response","id":"register_0","payload":{"pairingType":"PIN"}}"#, awaited: awaiting)
                == .registrationShown(pairingType: "PIN"))
        #expect(
            s.route(#"{"type":"response","id":"9"}"#, awaited: awaiting)
                == .ignored("ignored an SSAP response 9 that answers nothing asked"))
        s.dropped()
        #expect(!s.isSubscribed("ssap://audio/getVolume"))
    }
}

extension LGSession.Admission {
    fileprivate func isRefused(_ kind: DriverError.Kind) -> Bool {
        if case .refused(let error) = self { return error.kind == kind }
        return false
    }
}

extension LGSessionAction {
    fileprivate var isWarning: Bool {
        if case .log(.warning, _) = self { return true }
        return false
    }
}
