import Drivers
import TestSupport
import Testing

private let t0 = ContinuousClock.now
private let host = "192.0.2.60"
private let name = "tv2mqtt"

private func session(token: String? = nil, pin: String? = nil, maxQueued: Int = 32)
    -> SamsungSession
{
    SamsungSession(
        configuration: .init(
            host: host, clientName: name, token: token.flatMap(SamsungToken.init), pinnedCertificate: pin,
            maxQueued: maxQueued))
}

private let volumeUp: [SamsungRemoteStep] = [.message(.key("KEY_VOLUP", .click))]
private let home: [SamsungRemoteStep] = [.message(.key("KEY_HOME", .click))]

/// A session never paired that found 8002 refused and 8001 working, now idle.
private func plainSession() -> SamsungSession {
    var s = session()
    _ = s.connect(now: t0)
    _ = s.connectFailed(.refused, now: t0)
    _ = s.opened(now: t0)
    _ = s.received(.connected(token: nil), now: t0)
    _ = s.closed(now: t0)
    return s
}

/// Drives a session from idle to ready on 8002, learning token "tok".
private func readySession(token: String? = nil) -> SamsungSession {
    var s = session(token: token, pin: "aabb")
    _ = s.connect(now: t0)
    _ = s.tlsEstablished(certificateFingerprint: "aabb", now: t0)
    _ = s.opened(now: t0)
    _ = s.received(.connected(token: SamsungToken("tok")), now: t0)
    return s
}

@Suite("Samsung pairing session", .cpuBound)
struct SamsungSessionTests {
    @Test("first pairing: 8002 without token, pin on first use, approval, token persisted")
    func firstPairing() throws {
        var s = session()
        let secure = SamsungRemoteEndpoint.secure(host: host, clientName: name, token: nil)
        #expect(s.connect(now: t0) == [.open(secure)])
        #expect(s.state == .connecting(secure))
        #expect(
            s.tlsEstablished(certificateFingerprint: "AA:BB:CC", now: t0) == [.pinCertificate("aabbcc")])
        #expect(s.opened(now: t0) == [])
        #expect(s.state == .awaitingApproval(secure, deadline: t0.advanced(by: .seconds(30))))
        #expect(s.nextDeadline == t0.advanced(by: .seconds(30)))
        let token = try #require(SamsungToken("123456789"))
        #expect(s.received(.connected(token: token), now: t0 + .seconds(5)) == [.persistToken(token)])
        #expect(s.isReady)
        #expect(s.configuration.token == token)
        #expect(s.configuration.pinnedCertificate == "aabbcc")
        #expect(s.nextDeadline == nil)
    }

    @Test("a known token rides in the URL and is not persisted again")
    func knownToken() {
        var s = session(token: "tok", pin: "aabb")
        #expect(
            s.connect(now: t0) == [
                .open(.secure(host: host, clientName: name, token: SamsungToken("tok")))
            ])
        #expect(s.tlsEstablished(certificateFingerprint: "AABB", now: t0) == [])
        _ = s.opened(now: t0)
        #expect(s.received(.connected(token: SamsungToken("tok")), now: t0) == [])
        #expect(
            s.received(.connected(token: nil), now: t0) == [], "a repeat without a token changes nothing")
        #expect(s.isReady)
    }

    @Test("requests wait for approval, then go out in order; when ready they go at once")
    func queueing() {
        var s = session(pin: "aabb")
        #expect(
            s.submit(volumeUp, id: 1, now: t0) == [
                .open(.secure(host: host, clientName: name, token: nil))
            ])
        #expect(s.submit(home, id: 2, now: t0) == [], "already connecting")
        _ = s.tlsEstablished(certificateFingerprint: "aabb", now: t0)
        _ = s.opened(now: t0)
        #expect(
            s.received(.connected(token: nil), now: t0)
                == [
                    .send(.key("KEY_VOLUP", .click)), .completed(1), .send(.key("KEY_HOME", .click)),
                    .completed(2),
                ])
        #expect(s.submit(home, id: 3, now: t0) == [.send(.key("KEY_HOME", .click)), .completed(3)])
    }

    @Test("a Frame power-off hold is press, pause, release, in order")
    func hold() throws {
        var s = readySession()
        let steps = try #require(SamsungPowerPlanner.remoteSteps(for: .holdPower(.seconds(3))))
        #expect(
            s.submit(steps, id: 9, now: t0)
                == [
                    .send(.key("KEY_POWER", .press)), .pause(.seconds(3)), .send(.key("KEY_POWER", .release)),
                    .completed(9),
                ])
    }

    @Test("the queue is bounded")
    func bounded() {
        var s = session(maxQueued: 2)
        _ = s.submit(home, id: 1, now: t0)
        _ = s.submit(home, id: 2, now: t0)
        let actions = s.submit(home, id: 3, now: t0)
        #expect(actions.count == 1)
        guard case .failed(3, let error) = actions.first else {
            Issue.record("expected a failure, got \(actions)")
            return
        }
        #expect(error.kind == .rejected)
    }

    @Test(
        "ms.channel.unauthorized: pairing required with what to do on the TV; commands fail until pair")
    func denied() {
        var s = session(pin: "aabb")
        _ = s.submit(home, id: 1, now: t0)
        _ = s.tlsEstablished(certificateFingerprint: "aabb", now: t0)
        _ = s.opened(now: t0)
        let actions = s.received(.unauthorized, now: t0)
        guard actions.count == 3, case .pairingRequired(let message) = actions[0], actions[1] == .close,
            case .failed(1, let error) = actions[2]
        else {
            Issue.record("unexpected \(actions)")
            return
        }
        for phrase in [
            "Allow", "\"tv2mqtt\"", "External Device Manager", "Device Connection Manager", "Device List",
            "First time only",
        ] {
            #expect(message.contains(phrase), "\(phrase)")
        }
        #expect(!message.contains("8001"), "on 8002 the port note is left out")
        #expect(error.kind == .unauthorized)
        #expect(s.state == .pairingRequired(message))
        #expect(s.connect(now: t0) == [], "no automatic reconnect: it would pester the TV")
        #expect(s.submit(home, id: 2, now: t0) == [.failed(2, DriverError(.unauthorized, message))])
        #expect(
            s.pair(now: t0, acceptNewCertificate: false) == [
                .open(.secure(host: host, clientName: name, token: nil))
            ])
    }

    @Test("ms.channel.timeOut: pairing required, saying nobody answered the prompt")
    func timeOutEvent() {
        var s = session(pin: "aabb")
        _ = s.connect(now: t0)
        _ = s.tlsEstablished(certificateFingerprint: "aabb", now: t0)
        _ = s.opened(now: t0)
        let actions = s.received(.timeOut, now: t0)
        guard case .pairingRequired(let message) = actions.first else {
            Issue.record("unexpected \(actions)")
            return
        }
        #expect(message.hasPrefix("Nobody answered the prompt on the TV"))
        #expect(message.contains("30 seconds"))
        #expect(actions.last == .close)
    }

    @Test("our own pairing deadline: nothing before it, pairing required at it")
    func deadline() {
        var s = session(pin: "aabb")
        _ = s.submit(home, id: 1, now: t0)
        _ = s.tlsEstablished(certificateFingerprint: "aabb", now: t0)
        _ = s.opened(now: t0)
        #expect(s.tick(now: t0 + .seconds(29)) == [])
        let actions = s.tick(now: t0 + .seconds(30))
        #expect(actions.count == 3)
        if case .failed(1, let error) = actions.last {
            #expect(error.kind == .timeout)
        } else {
            Issue.record("\(actions)")
        }
        #expect(s.tick(now: t0 + .seconds(60)) == [], "fires once")
    }

    @Test(
        "a TV never paired: 8002 refused or failing TLS falls back to 8001",
        arguments: [SamsungConnectFailure.refused, .tlsHandshakeFailed("wrong version number")])
    func fallbackUnpaired(failure: SamsungConnectFailure) {
        var s = session()
        _ = s.submit(home, id: 1, now: t0)
        let plain = SamsungRemoteEndpoint.plain(host: host, clientName: name)
        #expect(s.connectFailed(failure, now: t0) == [.open(plain)])
        #expect(plain.url.query?.contains("token") == false)
        _ = s.opened(now: t0)
        #expect(
            s.received(.connected(token: nil), now: t0) == [
                .send(.key("KEY_HOME", .click)), .completed(1),
            ])
        #expect(s.plainOnly, "8001 worked: later connections go straight there")
        _ = s.closed(now: t0)
        #expect(s.connect(now: t0) == [.open(plain)])
    }

    /// Issue 13 item 5: a reset of one connection to 8002 used to send a paired TV's keys and
    /// text over 8001 in clear for the rest of the process.
    @Test(
        "a paired TV (token or pin) never falls back to 8001: the request fails, the next connect is TLS again",
        arguments: [
            (SamsungConnectFailure.refused, "tok", nil), (.tlsHandshakeFailed("reset"), "tok", nil),
            (.refused, nil, "aabb"), (.tlsHandshakeFailed("reset"), nil, "aabb"),
        ] as [(SamsungConnectFailure, String?, String?)])
    func noFallbackWhenPaired(failure: SamsungConnectFailure, token: String?, pin: String?) {
        var s = session(token: token, pin: pin)
        _ = s.submit(home, id: 1, now: t0)
        let actions = s.connectFailed(failure, now: t0)
        #expect(actions.count == 1, "\(actions)")
        guard case .failed(1, let error) = actions.first else {
            Issue.record("not a failure: \(actions)")
            return
        }
        #expect(error.kind == .unreachable)
        #expect(error.message.contains("never on port 8001"), "\(error.message)")
        #expect(s.state == .idle)
        #expect(!s.plainOnly)
        let secure = SamsungRemoteEndpoint.secure(host: host, clientName: name, token: token.flatMap(SamsungToken.init))
        #expect(s.connect(now: t0) == [.open(secure)])
    }

    @Test("a TV that went plain before it was paired goes back to TLS once it has a pin")
    func plainThenPaired() {
        var s = plainSession()
        #expect(s.plainOnly)
        _ = s.pair(now: t0, acceptNewCertificate: false)
        _ = s.tlsEstablished(certificateFingerprint: "aabb", now: t0)
        _ = s.opened(now: t0)
        _ = s.received(.connected(token: SamsungToken("tok")), now: t0)
        _ = s.closed(now: t0)
        let secure = SamsungRemoteEndpoint.secure(host: host, clientName: name, token: SamsungToken("tok"))
        #expect(s.connect(now: t0) == [.open(secure)])
        let afterReset = s.connectFailed(.refused, now: t0)
        #expect(!afterReset.contains(.open(.plain(host: host, clientName: name))), "\(afterReset)")
    }

    @Test(
        "other failures, and any failure on 8001, end the attempt and fail what waited",
        arguments: [
            (SamsungConnectFailure.timedOut, DriverError.Kind.timeout),
            (.unreachable("no route"), .unreachable),
            (.upgradeRejected(403), .rejected),
        ])
    func failures(failure: SamsungConnectFailure, kind: DriverError.Kind) {
        var s = session()
        _ = s.submit(home, id: 1, now: t0)
        let actions = s.connectFailed(failure, now: t0)
        #expect(actions.count == 1)
        if case .failed(1, let error) = actions.first {
            #expect(error.kind == kind)
        } else {
            Issue.record("\(actions)")
        }
        #expect(s.state == .idle)

        var plain = session()
        _ = plain.submit(home, id: 2, now: t0)
        _ = plain.connectFailed(.refused, now: t0)
        let second = plain.connectFailed(.refused, now: t0)
        if case .failed(2, let error) = second.first {
            #expect(error.kind == .unreachable)
        } else {
            Issue.record("\(second)")
        }
    }

    @Test("a token TV reached on 8001 says unauthorized: the message explains the port")
    func unauthorizedOnPlain() {
        var s = session()
        _ = s.connect(now: t0)
        _ = s.connectFailed(.tlsHandshakeFailed("x"), now: t0)
        _ = s.opened(now: t0)
        guard case .pairingRequired(let message) = s.received(.unauthorized, now: t0).first else {
            Issue.record("no pairing message")
            return
        }
        #expect(message.contains("port 8001"))
    }

    @Test("a changed certificate: report it, close, withhold the token, until pairing accepts it")
    func certificateChanged() {
        var s = session(token: "tok", pin: "aa:bb")
        _ = s.submit(home, id: 1, now: t0)
        let actions = s.tlsEstablished(certificateFingerprint: "CC:DD", now: t0)
        #expect(actions.prefix(2) == [.certificateChanged(pinned: "aabb", seen: "ccdd"), .close])
        if case .failed(1, let error) = actions.last {
            #expect(error.kind == .unauthorized)
        } else {
            Issue.record("\(actions)")
        }
        #expect(s.state == .certificateChanged(pinned: "aabb", seen: "ccdd"))
        #expect(s.opened(now: t0) == [], "no upgrade from this state")
        if case .failed(2, let error) = s.submit(home, id: 2, now: t0).first {
            #expect(error.message.contains("certificate changed"))
        } else {
            Issue.record("submit did not fail")
        }
        #expect(s.pair(now: t0, acceptNewCertificate: false) == [])
        #expect(
            s.pair(now: t0, acceptNewCertificate: true) == [
                .open(.secure(host: host, clientName: name, token: SamsungToken("tok")))
            ])
        #expect(s.tlsEstablished(certificateFingerprint: "ccdd", now: t0) == [.pinCertificate("ccdd")])
    }

    @Test("pairing again keeps the pin: with 8002 refused it never falls back to 8001")
    func pairAgainKeepsPin() {
        var s = session(pin: "aabb")
        #expect(
            s.pair(now: t0, acceptNewCertificate: true) == [.open(.secure(host: host, clientName: name, token: nil))])
        let failed = s.connectFailed(.refused, now: t0)
        #expect(!failed.contains(.open(.plain(host: host, clientName: name))), "\(failed)")
        #expect(s.state == .idle)
        #expect(s.configuration.pinnedCertificate == "aabb")
        // Over TLS, the pairing takes the certificate the TV presents.
        _ = s.pair(now: t0, acceptNewCertificate: true)
        #expect(s.tlsEstablished(certificateFingerprint: "CC:DD", now: t0) == [.pinCertificate("ccdd")])
        #expect(s.configuration.pinnedCertificate == "ccdd")
    }

    @Test("a token from a connection in clear never replaces one learned over TLS")
    func plainTokenNeverReplacesTLS() throws {
        var s = session()
        _ = s.connect(now: t0)
        #expect(s.connectFailed(.refused, now: t0) == [.open(.plain(host: host, clientName: name))])
        _ = s.opened(now: t0)
        // Meanwhile `tv2mqtt pair` paired it over TLS (adopted from the state file).
        let learned = try #require(SamsungToken("tlstoken"))
        s.adoptSecrets(token: learned, pinnedCertificate: "aabb")
        let actions = s.received(.connected(token: SamsungToken("plaintoken")), now: t0)
        let persisted = actions.contains { if case .persistToken = $0 { true } else { false } }
        #expect(!persisted, "\(actions)")
        #expect(s.configuration.token == learned)
    }

    @Test("a secure upgrade without a certificate check is refused when a token would be sent")
    func uncheckedCertificate() {
        var s = session(token: "tok")
        _ = s.connect(now: t0)
        #expect(s.opened(now: t0) == [.close])
        #expect(s.state == .idle)
    }

    @Test("a 2014/2015 TV's ms.error stops the session as unsupported")
    func legacy() {
        var s = session(pin: "aabb")
        _ = s.submit(home, id: 1, now: t0)
        _ = s.tlsEstablished(certificateFingerprint: "aabb", now: t0)
        _ = s.opened(now: t0)
        let actions = s.received(.error("unrecognized method value : ms.remote.control"), now: t0)
        #expect(actions.first == .close)
        if case .failed(1, let error) = actions.last {
            #expect(error.kind == .unsupported)
        } else {
            Issue.record("\(actions)")
        }
        #expect(s.submit(home, id: 2, now: t0).count == 1)
    }

    @Test("replies and unknown events are delivered; noise is dropped")
    func delivery() {
        var s = readySession()
        let apps = SamsungEvent.installedApps([SamsungInstalledApp(appID: "1", name: "A", appType: 2)])
        #expect(s.received(apps, now: t0) == [.deliver(apps)])
        #expect(
            s.received(.appLaunch(succeeded: true, detail: "200"), now: t0) == [
                .deliver(.appLaunch(succeeded: true, detail: "200"))
            ])
        #expect(
            s.received(.error("unrecognized method value : ms.application.stop"), now: t0).count == 1)
        #expect(s.received(.other("x"), now: t0) == [.deliver(.other("x"))])
        #expect(s.received(.ignorable("ms.channel.ready"), now: t0) == [])
        #expect(
            s.received(.unauthorized, now: t0).contains(.close), "a later revocation stops the session")
    }

    @Test("a dropped connection returns to idle, failing what waited; the next request reconnects")
    func dropped() {
        var s = session(pin: "aabb")
        _ = s.submit(home, id: 1, now: t0)
        _ = s.tlsEstablished(certificateFingerprint: "aabb", now: t0)
        _ = s.opened(now: t0)
        let actions = s.closed(now: t0)
        if case .failed(1, let error) = actions.first {
            #expect(error.kind == .unreachable)
        } else {
            Issue.record("\(actions)")
        }
        #expect(s.state == .idle)
        #expect(s.submit(home, id: 2, now: t0).count == 1, "reconnects")
        var ready = readySession()
        #expect(ready.closed(now: t0) == [])
        #expect(ready.state == .idle)
    }

    @Test("a new host is used by the next connection")
    func newHost() {
        var s = session()
        s.updateHost("203.0.113.99")
        #expect(
            s.connect(now: t0) == [.open(.secure(host: "203.0.113.99", clientName: name, token: nil))])
    }

    @Test("events in the wrong state are ignored")
    func wrongState() {
        var s = session()
        #expect(s.tlsEstablished(certificateFingerprint: "aa", now: t0) == [])
        #expect(s.opened(now: t0) == [])
        #expect(s.connectFailed(.refused, now: t0) == [])
        #expect(s.received(.unauthorized, now: t0) == [])
        #expect(s.received(.timeOut, now: t0) == [])
        #expect(s.closed(now: t0) == [])
        #expect(s.tick(now: t0 + .seconds(100)) == [])
        #expect(s.state == .idle)
    }

    @Test("ms.channel.connect before the upgrade or after stopping is ignored, token included")
    func strayConnect() {
        var s = session()
        _ = s.connect(now: t0)
        #expect(s.received(.connected(token: SamsungToken("x")), now: t0) == [])
        #expect(s.configuration.token == nil)
        var ready = readySession()
        #expect(
            ready.received(.connected(token: SamsungToken("new")), now: t0) == [.persistToken(SamsungToken("new")!)])
    }

    @Test("pairing again starts on 8002 even after 8001 worked")
    func pairRetriesSecure() {
        var s = plainSession()
        #expect(s.plainOnly)
        #expect(
            s.pair(now: t0, acceptNewCertificate: false) == [.open(.secure(host: host, clientName: name, token: nil))])
    }

    @Test("certificate policy: first use, same (any spelling), changed")
    func certificatePolicy() {
        #expect(SamsungCertificatePolicy.evaluate(pinned: nil, seen: "AB:CD") == .pinFirstUse("abcd"))
        #expect(SamsungCertificatePolicy.evaluate(pinned: "", seen: "ab") == .pinFirstUse("ab"))
        #expect(SamsungCertificatePolicy.evaluate(pinned: "ABCD", seen: "ab:cd") == .matches)
        #expect(
            SamsungCertificatePolicy.evaluate(pinned: "abcd", seen: "abce")
                == .changed(pinned: "abcd", seen: "abce"))
    }
}
