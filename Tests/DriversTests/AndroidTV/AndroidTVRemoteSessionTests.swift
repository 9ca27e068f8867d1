import Testing

@testable import Drivers

private let t0 = ContinuousClock.now
private let sony = AndroidTVRemoteMessage.Device(model: "BRAVIA 4K", vendor: "Sony", packageName: "", appVersion: "5.2")

/// The remote session's decisions on port 6466, without sockets: what the TV sends in, what
/// the bridge answers, what it keeps, and when a silent TV is dropped.
@Suite("Android TV remote session: features, pings, pushed state, silence")
struct AndroidTVRemoteSessionTests {
    @Test("configure is answered with the features both want; set active repeats them")
    func negotiation() {
        var session = AndroidTVRemoteSession(wanted: .wanted(ime: true), connectedAt: t0)
        let offered = AndroidTVFeatures(rawValue: 623)  // ping, key, ime, voice, power, volume, app link
        let effects = session.received(.configure(offered, sony), at: t0)
        #expect(effects == [.send(.configure(AndroidTVFeatures(rawValue: 615), AndroidTVRemoteSession.ownDevice))])
        #expect(session.active == [.ping, .key, .ime, .power, .volume, .appLink], "no voice: not asked for")
        #expect(session.device == sony)
        #expect(session.received(.setActive([]), at: t0) == [.send(.setActive(session.active))])
        var noIME = AndroidTVRemoteSession(wanted: .wanted(ime: false), connectedAt: t0)
        _ = noIME.received(.configure(offered, sony), at: t0)
        #expect(!noIME.active.contains(.ime), "androidtv.ime off keeps the TV's own keyboard")
    }

    @Test("a TV that offers no keys (a TCL said 637) is answered without them and the log says how to fix it")
    func noKeyBit() {
        var session = AndroidTVRemoteSession(wanted: .wanted(ime: true), connectedAt: t0)
        let effects = session.received(.configure(AndroidTVFeatures(rawValue: 637), sony), at: t0)
        #expect(!session.active.contains(.key) && session.active.contains(.appLink))
        let warnings = effects.compactMap { effect -> String? in
            if case .log(.warning, let line) = effect { line } else { nil }
        }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("no keys (features 637)") == true)
        #expect(warnings.first?.contains("Android TV Remote Service") == true)
    }

    @Test("every ping is echoed with its value, and any message pushes the silence deadline to 16 s after it")
    func pingsAndSilence() {
        var session = AndroidTVRemoteSession(wanted: .wanted(ime: false), connectedAt: t0)
        #expect(session.idleDeadline == t0 + .seconds(16))
        #expect(session.received(.pingRequest(7), at: t0 + .seconds(5)) == [.send(.pingResponse(7))])
        #expect(session.received(.pingRequest(-3), at: t0 + .seconds(10)) == [.send(.pingResponse(-3))])
        #expect(session.idleDeadline == t0 + .seconds(26))
        _ = session.received(.other(field: 22), at: t0 + .seconds(11))
        #expect(session.idleDeadline == t0 + .seconds(27))
    }

    @Test("start, app and volume are kept as the TV pushes them, in any order; a repeat changes nothing")
    func pushedState() {
        var session = AndroidTVRemoteSession(wanted: .wanted(ime: true), connectedAt: t0)
        #expect(session.received(.volume(level: 7, maximum: 15, muted: false), at: t0) == [.changed])
        #expect(!session.ready)
        #expect(session.received(.start(started: true), at: t0) == [.changed])
        #expect(session.ready)
        #expect(session.received(.appInFront(package: "com.netflix.ninja"), at: t0) == [.changed])
        #expect(session.received(.appInFront(package: "com.netflix.ninja"), at: t0) == [])
        let snapshot = session.snapshot()
        #expect(snapshot.power == true && snapshot.powerMode == nil)
        #expect(snapshot.appID == "com.netflix.ninja")
        #expect(snapshot.volume == 47 && snapshot.muted == false, "7 of 15 is 47 %")
        #expect(session.received(.start(started: false), at: t0) == [.changed])
        #expect(session.snapshot().power == false && session.snapshot().powerMode == "standby")
    }

    @Test("a maximum of 0 is external audio: no volume, mute still known")
    func externalAudio() {
        var session = AndroidTVRemoteSession(wanted: .wanted(ime: false), connectedAt: t0)
        _ = session.received(.volume(level: 0, maximum: 0, muted: true), at: t0)
        #expect(session.snapshot().volume == nil && session.snapshot().muted == true)
        _ = session.received(.volume(level: 100, maximum: 100, muted: false), at: t0)
        #expect(session.snapshot().volume == 100)
        _ = session.received(.volume(level: 200, maximum: 100, muted: false), at: t0)
        #expect(session.snapshot().volume == 100, "a level past the maximum is the maximum")
    }

    @Test("text goes with the counters of the TV's last batch edit, 0 before any")
    func imeCounters() {
        var session = AndroidTVRemoteSession(wanted: .wanted(ime: true), connectedAt: t0)
        #expect(session.insertion("hi") == .imeBatchEdit(imeCounter: 0, fieldCounter: 0, text: "hi"))
        #expect(session.received(.imeBatchEdit(imeCounter: 4, fieldCounter: 9, text: nil), at: t0) == [])
        #expect(session.insertion("hi") == .imeBatchEdit(imeCounter: 4, fieldCounter: 9, text: "hi"))
    }

    @Test("a refused message comes back as an error echoing it")
    func refusal() {
        var session = AndroidTVRemoteSession(wanted: .wanted(ime: false), connectedAt: t0)
        #expect(
            session.received(.error(.key(code: 3, .short)), at: t0) == [.refused(.key(code: 3, .short))])
        #expect(session.received(.error(nil), at: t0) == [.refused(nil)])
    }
}
