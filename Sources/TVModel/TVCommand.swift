/// A validated command for one TV: what the command router produces from an MQTT message
/// and what a driver carries out.
public enum TVCommand: Equatable, Sendable {
    /// Press a key `repeat` times (`repeatRange`). The key is either from the shared vocabulary or the
    /// vendor's own name (`VolumeUp`, `KEY_VOLUP`), checked against the driver's allowlist.
    case key(TVKey, repeat: Int)
    /// Idempotent power: `.on` never turns a TV off and `.off` never turns it on.
    case power(PowerAction)
    /// Launch an app by name or id.
    case app(String)
    /// Launch an app with deep-link parameters (`contentId`, `mediaType`; which media types
    /// an app takes is the TV planner's to say).
    case launch(appID: String, contentID: String?, mediaType: String?)
    /// Type text into the on-screen keyboard (at most `maxTextLength` characters).
    case text(String)
    /// Switch to an input by name ("HDMI1", "Antenna TV").
    case input(String)
    /// Set the volume level (`volumeRange`).
    case volume(Int)
    /// Mute or unmute.
    case mute(Bool)
    /// Tune the tuner to a channel, by number ("7.1") or by the select's label ("7.1 KQED").
    case channel(String)
    /// Press a key, hold it `milliseconds` (`holdRange`), release it.
    case holdKey(TVKey, milliseconds: Int)
    /// Search the TV's catalogue (Roku `search/browse`, `SearchRequest.swift`).
    case search(SearchRequest)
    /// Set a switch or select the TV's driver declares (`DeclaredControl`) to one of its
    /// values (`DeclaredControl.values`, checked by the parser).
    case control(key: String, value: String)
    /// Switch the picture only on (`true`) or off (`false`); the TV stays on
    /// (`TVCapabilities.screenControl`).
    case screen(Bool)
    /// Send the sound to one of the outputs the TV listed (`TVCapabilities.soundOutputs`), by id.
    case soundOutput(String)
    /// Show a short message on the screen (at most `maxToastLength` characters).
    case toast(String)

    /// The property the command is sent on (a held key is a `key`); nil for a declared
    /// control, which is sent on its own key.
    public var property: CommandProperty? {
        switch self {
        case .key, .holdKey: .key
        case .power: .power
        case .app: .app
        case .launch: .launch
        case .text: .text
        case .input: .input
        case .volume: .volume
        case .mute: .mute
        case .channel: .channel
        case .search: .search
        case .control: nil
        case .screen: .screen
        case .soundOutput: .soundOutput
        case .toast: .toast
        }
    }

    /// A short name for logs and `command_failed` events: "key", "power", "app"… (its property).
    public var name: String {
        if case .control(let key, _) = self { return key }
        return property?.rawValue ?? ""
    }
}
