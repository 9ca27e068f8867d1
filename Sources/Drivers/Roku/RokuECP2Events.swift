import TVModel
import Wire

/// How an ECP-2 notify changes a Roku's snapshot (tv-protocols §B.5). Pure: tested without
/// a device.
///
/// Payloads are known only in part (single sources), so what a notify carries is applied at
/// once, and the notifies whose payload does not say what is now in the foreground (an app
/// started or left, the screensaver, an input, power on) also ask for a refresh: active-app
/// and media-player queried over the session.
public enum RokuECP2Events {
    /// What the bridge subscribes to with `request-events`.
    public static let subscribed = [
        "power-mode-changed", "volume-changed", "media-player-state-changed", "plugin-ui-run",
        "plugin-ui-exit", "screensaver-run", "screensaver-exit", "tvinput-ui-run", "textedit-opened",
        "textedit-changed", "textedit-closed", "tv-channel-changed",
    ]

    public struct Outcome: Equatable, Sendable {
        /// The snapshot changed: publish it.
        public var changed = false
        /// Ask the TV what is in the foreground now.
        public var refresh = false
        /// The TV reported its volume level and mute state.
        public var reportsVolume = false

        public init() {}
    }

    /// Applies `message` to `snapshot`; `apps` names app ids.
    public static func apply(_ message: ECP2Message, to snapshot: inout TVSnapshot, apps: [RokuApp])
        -> Outcome
    {
        guard case .notify(let name) = message.kind else { return Outcome() }
        let before = snapshot
        var outcome = Outcome()
        switch name {
        case "power-mode-changed":
            guard let raw = message["param-power-mode"], let mode = powerMode(raw) else { break }
            snapshot.reachable = true
            snapshot.powerMode = mode
            snapshot.power = mode == "PowerOn"
            if mode == "PowerOn" {
                outcome.refresh = before.power != true
            } else {
                // What HTTP polling reports for a TV that is not on: no foreground at all.
                snapshot.app = nil
                snapshot.appID = nil
                snapshot.input = nil
                snapshot.clearMedia()
                snapshot.clearChannel()
            }
        case "volume-changed":
            if let text = message["param-volume"], let level = Int(text), (0...100).contains(level) {
                snapshot.volume = level
                outcome.reportsVolume = true
            }
            if let text = message["param-mute"] ?? message["param-muted"], let flag = bool(text) {
                snapshot.muted = flag
            }
        case "media-player-state-changed":
            if let state = message["param-media-player-state"] {
                let media = RokuMediaPlayer(state: state).mediaState
                snapshot.mediaState = media
                if media == .idle || media == nil {
                    snapshot.position = nil
                    snapshot.duration = nil
                    snapshot.live = nil
                }
            }
            // The same rule as media-player over HTTP (`RokuMediaPlayer.normaliseLive`): no
            // duration of 0, and neither duration nor position for a live stream.
            var player = RokuMediaPlayer(state: nil)
            player.isLive = snapshot.live
            player.position = message["param-media-player-position"].flatMap(RokuMediaPlayer.seconds)
            player.duration = message["param-media-player-duration"].flatMap(RokuMediaPlayer.seconds)
            player.normaliseLive()
            if let position = player.position { snapshot.position = position }
            if message["param-media-player-duration"] != nil { snapshot.duration = player.duration }
            if let id = message["param-channel-id"], !id.isEmpty, id != snapshot.appID {
                foreground(id, in: &snapshot, apps: apps)
                outcome.refresh = true
            }
            // Playing without a duration may be a live stream: only media-player says
            // (`is_live`), so ask it, once, unless the stream is already known to be live.
            if snapshot.mediaState == .playing || snapshot.mediaState == .buffering,
                message["param-media-player-duration"] == nil, snapshot.live != true
            {
                outcome.refresh = true
            }
        case "tv-channel-changed":
            outcome.refresh = true  // the channel and program: tv-active-channel says which
        case "plugin-ui-run", "tvinput-ui-run":
            if let id = message["param-channel-id"], !id.isEmpty { foreground(id, in: &snapshot, apps: apps) }
            outcome.refresh = true
        case "plugin-ui-exit", "screensaver-run", "screensaver-exit":
            outcome.refresh = true
        default:
            break  // textedit-*: nothing in the state document shows the on-screen keyboard
        }
        outcome.changed = snapshot != before
        return outcome
    }

    /// `power-on` → `PowerOn`, `display-off` → `DisplayOff`, `ready` → `Ready`: ECP-2 spells
    /// the HTTP values in lowercase kebab case. A value already in HTTP form is kept; anything
    /// that is not letters and dashes, or has no letter, is refused (nil).
    public static func powerMode(_ raw: String) -> String? {
        guard raw.count <= 32, raw.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }),
            raw.contains(where: \.isLetter)
        else { return nil }
        guard raw.contains("-") || raw.first?.isLowercase == true else { return raw }
        return raw.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    private static func foreground(_ id: String, in snapshot: inout TVSnapshot, apps: [RokuApp]) {
        guard RokuCommandPlanner.isAppID(id) else { return }
        if id == RokuActiveApp.homeID {
            snapshot.app = RokuActiveApp.homeName
            snapshot.appID = nil
            snapshot.input = nil
            snapshot.clearChannel()
            return
        }
        let app = apps.first { $0.id == id }
        // Another app or input: the channel shown so far is no longer on screen.
        if id != snapshot.appID { snapshot.clearChannel() }
        snapshot.appID = id
        snapshot.app = app?.name ?? id
        snapshot.input = (app?.isInput ?? id.hasPrefix("tvinput.")) ? (app?.name ?? id) : nil
    }

    private static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "1", "on": true
        case "false", "0", "off": false
        default: nil
        }
    }
}
