import Clients
import Support
import Wire

/// One message for an ECP-2 session, and the log entries of the request it answers: they are
/// logged once it is written (stamped when the request was read), as the HTTP server's answer
/// is written before anyone who waits for the log runs. A client pressing the next key as soon
/// as the log shows the last one (tvbench) then finds the answer to the last one on its way, as
/// it would from a TV, instead of racing it.
struct ECP2Outgoing: Sendable {
    var text: String
    var heldLog: [JSONValue] = []

    init(_ text: String, heldLog: [JSONValue] = []) {
        self.text = text
        self.heldLog = heldLog
    }
}

/// Log entries held back while an ECP-2 request is answered (`RokuSimulator.heldLog`). Touched
/// by the one task that answers it.
final class ECP2LogHold: @unchecked Sendable {
    var entries: [JSONValue] = []
}

/// What a simulated Roku tells its ECP-2 sessions: notifies for every state change, whatever
/// made it (an HTTP or ECP-2 key, a launch, `/sim/state`, a Wake-on-LAN packet).
struct ECP2Core {
    struct Peer {
        /// Everything written to the session goes through here, in order.
        let outbox: AsyncStream<ECP2Outgoing>.Continuation
        let connection: WebSocketConnection
        /// Events the client subscribed to with `request-events`.
        var events: Set<String> = []
    }

    var enabled = false
    var peers: [Int: Peer] = [:]
    var nextPeer = 0
    /// The state as last announced, and when (the playback position moves on by itself).
    var announced = RokuSimState()
    var announcedAt = ContinuousClock.now
}

extension RokuSimulator {
    /// Compares the state with what was last announced and sends each subscribed session the
    /// notifies for the difference. Called under the lock right after a change, so notifies
    /// go out in the order the changes were made.
    func announceLocked(_ core: inout Core) {
        let now = ContinuousClock.now
        let current = core.snapshot(at: now)
        defer {
            core.ecp2.announced = current
            core.ecp2.announcedAt = now
        }
        guard !core.ecp2.peers.isEmpty else { return }
        // Uptime in seconds with milliseconds, as a Roku stamps its notifies.
        let elapsed = now - started
        let millis = Int(elapsed.wholeMilliseconds % 1000)
        let fraction = String(1000 + millis).dropFirst()
        let notifies = Self.notifies(
            from: core.ecp2.announced, at: core.ecp2.announcedAt, to: current, at: now, kind: kind,
            timestamp: "\(Int(elapsed.components.seconds) + 264_789).\(fraction)")
        for notify in notifies {
            guard case .notify(let name) = notify.kind else { continue }
            let text = notify.serialized()
            for peer in core.ecp2.peers.values where peer.events.contains(name) {
                peer.outbox.yield(ECP2Outgoing(text))
            }
        }
    }

    /// The notifies (tv-protocols §B.5 names and payloads) between two states.
    static func notifies(
        from old: RokuSimState, at then: ContinuousClock.Instant, to new: RokuSimState,
        at now: ContinuousClock.Instant, kind: RokuDeviceKind, timestamp: String
    ) -> [ECP2Message] {
        var out: [ECP2Message] = []
        func notify(_ name: String, _ parameters: [String: String]) {
            var parameters = parameters
            parameters["timestamp"] = timestamp
            out.append(.notify(name, parameters))
        }
        if old.power != new.power && new.power != .off {
            let mode = new.power == .on ? "power-on" : (kind == .tv ? "ready" : "display-off")
            notify("power-mode-changed", ["param-power-mode": mode])
        }
        if old.appID != new.appID && new.power == .on {
            let app = RokuCatalog.app(new.appID, kind: kind)
            if new.appID == RokuCatalog.homeID {
                notify("plugin-ui-exit", ["param-channel-id": old.appID])
            } else if app?.type == "tvin" {
                notify("tvinput-ui-run", ["param-channel-id": new.appID])
            } else {
                notify("plugin-ui-run", ["param-channel-id": new.appID])
            }
        }
        if new.power == .on && new.appID == RokuTuner.appID && old.appID == new.appID && old.channel != new.channel {
            notify("tv-channel-changed", [:])
        }
        if old.screensaver != new.screensaver {
            notify(new.screensaver ? "screensaver-run" : "screensaver-exit", [:])
        }
        if mediaChanged(old, then, new, now) {
            var parameters = [
                "param-media-player-state": new.mediaState.rawValue, "param-channel-id": new.appID,
                "param-media-player-position": "\(new.positionMS) ms",
            ]
            if !new.isLive { parameters["param-media-player-duration"] = "\(new.durationMS) ms" }
            notify("media-player-state-changed", parameters)
        }
        // A stick passes volume keys to the TV over HDMI-CEC: it has no level to report.
        if kind == .tv && (old.volume != new.volume || old.muted != new.muted) {
            notify(
                "volume-changed",
                [
                    "param-volume": String(new.volume), "param-mute": new.muted ? "true" : "false",
                    "param-audio-destination": "speaker",
                ])
        }
        return out
    }

    /// Playback changed: another state, app or duration, or a position that did not just move
    /// on with time (a seek).
    private static func mediaChanged(
        _ old: RokuSimState, _ then: ContinuousClock.Instant, _ new: RokuSimState, _ now: ContinuousClock.Instant
    ) -> Bool {
        if old.mediaState != new.mediaState || old.appID != new.appID || old.durationMS != new.durationMS
            || old.isLive != new.isLive
        {
            return true
        }
        var expected = old.positionMS
        if old.mediaState == .play {
            let elapsed = now - then
            expected += Int(elapsed.wholeMilliseconds)
            if old.durationMS > 0 { expected = min(expected, old.durationMS) }
        }
        return abs(new.positionMS - expected) > 1000
    }
}
