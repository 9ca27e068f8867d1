import Clients
import Net
import Wire

/// `/sim/state` on `simPort`: `GET` shows the state with the pairing code on screen and how
/// many clients are paired; `POST` takes `power` (`on`, `standby`, `off`: deep sleep, the
/// network down until Wake-on-LAN), `app` (a package),
/// `volume`, `volume_max` (0: external audio) and `muted`, and pushes what changed.
extension AndroidTVSimulator {
    static let simStateFields: Set<String> = ["power", "app", "volume", "volume_max", "muted"]

    func applyLocked(_ change: JSONValue, to core: inout Core) throws(SimulatorError) {
        let change = try SimStateChange(change, known: Self.simStateFields)
        let power: Power? = try change.choice("power", "'on', 'standby', 'off'")
        let app = try change.string("app")
        if let app, app.isEmpty || app.utf8.count > 255 { throw SimulatorError("'app': a package name") }
        let volumeMax = try change.int("volume_max", 0...1000)
        let volume = try change.int("volume", 0...1000)
        let muted = try change.bool("muted")
        let before = core.state
        if let power {
            core.state.on = power == .on
            core.state.asleep = power == .off
            if power == .off { for session in core.sessions.values { session.close() } }
        }
        if let app { core.state.app = app }
        if let volumeMax { core.state.volumeMax = volumeMax }
        if let volume { core.state.volume = min(volume, core.state.volumeMax) }
        if let muted { core.state.muted = muted }
        publish(from: before, &core)
    }

    enum Power: String, Sendable {
        case on, standby, off
    }

    /// A magic packet for its MAC: a TV in deep sleep wakes up, on.
    func woken(from sender: SocketAddress) {
        let wasAsleep = core.withLock { core -> Bool in
            guard core.state.asleep else { return false }
            let before = core.state
            core.state.asleep = false
            core.state.on = true
            publish(from: before, &core)
            return true
        }
        record("wake", ["from": .string("\(sender)"), "was_asleep": .bool(wasAsleep)])
    }

    /// In deep sleep the TV's network is down: a connection is closed at once.
    func refusedAsleep(_ tcp: TCPConnection, _ kind: String) -> Bool {
        guard core.withLock({ $0.state.asleep }) else { return false }
        // Logged before the close: a client that sees the close may look at the log at once.
        record(kind, ["action": .string("asleep")])
        tcp.close()
        return true
    }

    var currentSimState: JSONValue {
        core.withLock { core in
            guard case .object(var fields) = core.state.json else { return core.state.json }
            fields["code"] = core.code.map(JSONValue.string) ?? .null
            fields["paired_clients"] = .integer(Int64(core.paired.count))
            fields["sessions"] = .integer(Int64(core.sessions.count))
            return .object(fields)
        }
    }

    var simStateEndpoint: SimStateEndpoint {
        SimStateEndpoint(
            current: { [self] in currentSimState },
            apply: { [self] change throws(SimulatorError) in
                try core.withLock { core throws(SimulatorError) in try applyLocked(change, to: &core) }
                return nil
            })
    }

    func makeSimServer(on listener: TCPListener) -> SimHTTPServer {
        SimHTTPServer.start(listener: listener, serverHeader: "tvsim-androidtv") { [weak self] request, _ in
            guard let self else { return SimHTTPReply(SimResponse.plain(503, "")) }
            return SimRouting.answer(request, simState: simStateEndpoint.answer) { _ in nil }
        }
    }
}
