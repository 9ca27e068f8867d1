import Support
import TVModel

/// What a key command becomes on an LG webOS TV.
enum LGKeyCode: Equatable, Sendable {
    /// A button name for the pointer input socket (`type:button`).
    case button(String)
    /// `power_on` / `power_off`: the power logic, not a button.
    case power(PowerAction)
    /// `input_*`: `ssap://tv/switchInput` with the webOS input id.
    case input(String)
    /// `BACKSPACE`: the on-screen keyboard deletes a character (`deleteCharacters`).
    case deleteCharacter
    /// `KEYBOARD_ENTER`: the on-screen keyboard submits its text (`sendEnterKey`); the `ENTER`
    /// button only presses the highlighted key.
    case keyboardEnter
}

/// The keys of the pointer input socket (names from aiowebostv's `BUTTONS` and LGWebOSRemote;
/// webOS has no official list). Anything else is refused: unknown names are ignored by the TV
/// without an answer, so a typo would look like success.
enum LGKeys {
    /// The shared vocabulary. `play_pause`: webOS has no toggle button, so it is refused with
    /// a pointer to `play` and `pause`; `replay` is `REWIND`, the nearest.
    static let shared: [SharedKey: LGKeyCode] = [
        .powerOn: .power(.on), .powerOff: .power(.off),
        .home: .button("HOME"), .back: .button("BACK"), .up: .button("UP"), .down: .button("DOWN"),
        .left: .button("LEFT"), .right: .button("RIGHT"), .select: .button("ENTER"),
        .play: .button("PLAY"), .pause: .button("PAUSE"), .stop: .button("STOP"), .rewind: .button("REWIND"),
        .fastForward: .button("FASTFORWARD"), .replay: .button("REWIND"), .info: .button("INFO"),
        .menu: .button("MENU"), .volumeUp: .button("VOLUMEUP"), .volumeDown: .button("VOLUMEDOWN"),
        .mute: .button("MUTE"), .channelUp: .button("CHANNELUP"), .channelDown: .button("CHANNELDOWN"),
        .inputHDMI1: .input("HDMI_1"), .inputHDMI2: .input("HDMI_2"), .inputHDMI3: .input("HDMI_3"),
        .inputHDMI4: .input("HDMI_4"), .inputTuner: .button("TV"),
        .search: .button("SEARCH"),
    ]

    /// LG's own button names accepted as vendor keys.
    static let vendorButtons: Set<String> = [
        "HOME", "BACK", "UP", "DOWN", "LEFT", "RIGHT", "ENTER", "MENU", "INFO", "EXIT", "DASH", "ASTERISK", "CC",
        "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "RED", "GREEN", "YELLOW", "BLUE", "VOLUMEUP",
        "VOLUMEDOWN", "MUTE", "CHANNELUP", "CHANNELDOWN", "PLAY", "PAUSE", "STOP", "REWIND", "FASTFORWARD",
        "QMENU", "PROGRAM", "GUIDE", "LIST", "AD", "SAP", "3D_MODE", "SCREEN_REMOTE", "MYAPPS", "RECENT",
        "LIVE_ZOOM", "MAGNIFIER_ZOOM", "TELETEXT", "TEXTOPTION", "AUDIODESCRIPTION", "SEARCH", "TV",
    ]

    /// The input method's keys, beside the buttons.
    static let keyboardKeys: [String: LGKeyCode] = ["BACKSPACE": .deleteCharacter, "KEYBOARD_ENTER": .keyboardEnter]

    static func code(for key: TVKey) throws(CommandRejection) -> LGKeyCode {
        switch key {
        case .shared(.playPause):
            throw CommandRejection("play_pause: LG TVs have no play/pause toggle; send play or pause")
        case .shared(let shared):
            guard let code = Self.shared[shared] else {
                throw CommandRejection("key \(shared.rawValue): not on LG TVs")
            }
            return code
        case .vendor(let name):
            let upper = name.uppercased()
            if let keyboard = keyboardKeys[upper] { return keyboard }
            guard vendorButtons.contains(upper) else {
                throw CommandRejection("unknown LG key '\(printable(name))' (LG buttons: HOME, BACK, RED, 0-9, …)")
            }
            return .button(upper)
        }
    }
}
