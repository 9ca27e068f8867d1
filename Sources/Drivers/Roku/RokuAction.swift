import TVModel

/// A command resolved against what one Roku has: exactly the requests `perform` will make.
/// Produced by `RokuCommandPlanner`, so validation and execution cannot disagree.
public enum RokuAction: Equatable, Sendable {
    /// `POST /keypress/<key>` `repeat` times; `key` is already a clean path segment.
    case keypress(String, repeat: Int)
    /// One `POST /keypress/Lit_…` per character, in order.
    case text([String])
    /// `POST /launch/<appID>[?contentId=…&mediaType=…]`.
    case launch(appID: String, contentID: String?, mediaType: String?)
    /// Idempotent power with a state check first (never a blind toggle).
    case power(PowerAction)
    /// Volume to a level: VolumeUp/VolumeDown steps from the level the TV last pushed over
    /// ECP-2 (neither ECP nor ECP-2 has a request that sets a level).
    case volume(Int)
    /// Mute on or off: VolumeMute (a toggle) only when the pushed mute state differs.
    case mute(Bool)
    /// `POST /launch/tvinput.dtv?ch=<number>`: the tuner, on a channel of its list.
    case tune(channel: String)
    /// `keydown/<key>`, a pause of `milliseconds`, `keyup/<key>` (`RokuDriver+KeyHold.swift`).
    case hold(String, milliseconds: Int)
    /// `POST /search/browse?keyword=…` (`RokuSearch`).
    case search(SearchRequest)
}
