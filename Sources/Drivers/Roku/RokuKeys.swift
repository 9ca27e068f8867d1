import TVModel
import Wire

/// Roku ECP key names: the allowlist, the shared vocabulary mapped onto it, and `Lit_` text.
public enum RokuKeys {
    /// What a key needs from the device.
    public enum Requirement: Equatable, Sendable {
        case any
        /// Power keys: a Roku TV (a stick cannot switch the TV).
        case power
        /// Volume keys: a Roku TV, or a player that drives the TV's volume.
        case volume
        /// Channel and input keys: a Roku TV.
        case tv
    }

    /// Makes the remote beep (ECP `supports-find-remote`): the `find_remote` button's key.
    public static let findRemote = "FindRemote"

    /// Every key tv2mqtt sends, spelled as Roku documents it (RokuDoc's list, the TV keys, and
    /// the undocumented but widely used `PowerOn`/`Power`). `Sleep` is left out: its effect
    /// varies by model and nobody documents it.
    public static let known: [(name: String, requirement: Requirement)] = [
        ("Home", .any), ("Rev", .any), ("Fwd", .any), ("Play", .any), ("Select", .any), ("Left", .any),
        ("Right", .any), ("Down", .any), ("Up", .any), ("Back", .any), ("InstantReplay", .any),
        ("Info", .any),
        ("Backspace", .any), ("Search", .any), ("Enter", .any), (findRemote, .any),
        ("VolumeUp", .volume), ("VolumeDown", .volume), ("VolumeMute", .volume),
        ("PowerOn", .power), ("PowerOff", .power), ("Power", .power),
        ("ChannelUp", .tv), ("ChannelDown", .tv), ("InputTuner", .tv), ("InputHDMI1", .tv),
        ("InputHDMI2", .tv),
        ("InputHDMI3", .tv), ("InputHDMI4", .tv), ("InputAV1", .tv),
    ]

    private static let byLowercasedName: [String: (name: String, requirement: Requirement)] =
        Dictionary(
            known.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })

    /// The Roku key for a shared key; nil for `stop`, which a Roku remote does not have.
    public static func roku(_ key: SharedKey) -> String? {
        switch key {
        case .powerOn: "PowerOn"
        case .powerOff: "PowerOff"
        case .home: "Home"
        case .back: "Back"
        case .up: "Up"
        case .down: "Down"
        case .left: "Left"
        case .right: "Right"
        case .select: "Select"
        // Roku's Play toggles; there is no separate pause key (HA's Roku integration does the same).
        case .playPause, .play, .pause: "Play"
        case .stop: nil
        case .rewind: "Rev"
        case .fastForward: "Fwd"
        case .replay: "InstantReplay"
        // The Roku remote's * key is Info: it opens the options menu.
        case .info, .menu: "Info"
        case .volumeUp: "VolumeUp"
        case .volumeDown: "VolumeDown"
        case .mute: "VolumeMute"
        case .channelUp: "ChannelUp"
        case .channelDown: "ChannelDown"
        case .inputHDMI1: "InputHDMI1"
        case .inputHDMI2: "InputHDMI2"
        case .inputHDMI3: "InputHDMI3"
        case .inputHDMI4: "InputHDMI4"
        case .inputTuner: "InputTuner"
        case .search: "Search"
        }
    }

    /// The canonical spelling of a vendor key name, matched case-insensitively
    /// (`volumeup` → `VolumeUp`, `lit_a` → `Lit_a`); nil when it is not a Roku key.
    /// A `Lit_` key must carry exactly one character.
    public static func canonical(_ name: String) -> (name: String, requirement: Requirement)? {
        if name.utf8.count > 4, name.prefix(4).lowercased() == "lit_" {
            let rest = name.dropFirst(4)
            guard rest.count == 1 else { return nil }
            return ("Lit_" + rest, .any)
        }
        return byLowercasedName[name.lowercased()]
    }

    /// The key that types one character: `Lit_` and the character's UTF-8 bytes, every byte
    /// outside RFC 3986 unreserved percent-encoded (space → `Lit_%20`, € → `Lit_%E2%82%AC`),
    /// so the key is always one clean path segment.
    public static func literal(_ character: Character) -> String {
        "Lit_" + PercentEncoding.encodePathSegment(String(character))
    }

    /// A short list of key names for error messages.
    static var knownList: String {
        known.map(\.name).joined(separator: ", ") + ", Lit_<character>"
    }
}
