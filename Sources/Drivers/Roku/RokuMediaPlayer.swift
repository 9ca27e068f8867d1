import TVModel

/// `GET /query/media-player`: `<player error="false" state="play">` with `<position>73313 ms</position>`.
///
/// States: `play` → playing, `pause` → paused, `buffer`/`open`/`startup` → buffering (a
/// stream is being opened), `stop` → stopped, `close` → idle (nothing is playing: the app is
/// open without media, the state most apps report on their menus). An unknown state is
/// kept raw and gives no media state rather than a guess.
public struct RokuMediaPlayer: Equatable, Sendable {
    public var state: String?
    public var error: Bool
    /// Seconds.
    public var position: Double?
    public var duration: Double?
    public var isLive: Bool?

    public init(state: String?, error: Bool = false, position: Double? = nil, duration: Double? = nil) {
        self.state = state
        self.error = error
        self.position = position
        self.duration = duration
    }

    public var mediaState: MediaState? {
        switch state?.lowercased() {
        case "play": .playing
        case "pause": .paused
        case "buffer", "open", "startup": .buffering
        case "stop": .stopped
        case "close": .idle
        default: nil
        }
    }

    public static func parse(_ bytes: [UInt8]) throws(DriverError) -> RokuMediaPlayer {
        let root = try RokuXML.root(bytes, named: "player", what: "media player")
        var player = RokuMediaPlayer(
            state: RokuXML.nonEmpty(root.attribute("state")),
            error: RokuXML.bool(root.attribute("error")) ?? false)
        player.position = root.childText("position").flatMap(seconds)
        player.duration = root.childText("duration").flatMap(seconds)
        player.isLive = RokuXML.bool(root.childText("is_live"))
        player.normaliseLive()
        return player
    }

    /// `"73313 ms"` (or a bare `"73313"`) → 73.313. Anything else, negative or absurd, is unknown.
    static func seconds(_ text: String) -> Double? {
        var digits = Substring(text)
        if digits.hasSuffix("ms") { digits = digits.dropLast(2) }
        while digits.last == " " { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy(\.isASCII),
            let value = Int64(digits), value >= 0
        else { return nil }
        return Double(value) / 1000
    }
}
