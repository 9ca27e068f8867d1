import Support
import TVModel

/// What a key command becomes on an Android TV.
enum AndroidTVKeyCode: Equatable, Sendable {
    /// An Android key code (`KeyEvent.KEYCODE_*`, `RemoteKeyCode` in `remotemessage.proto`).
    case code(UInt64)
    /// `power_on` / `power_off`: the power logic, which knows whether the TV is on.
    case power(PowerAction)
}

/// Android's key codes for the shared vocabulary, and the vendor names accepted, with or
/// without their `KEYCODE_` prefix. Anything else is refused: the TV ignores a code it does
/// not know without an answer, so a typo would look like success.
enum AndroidTVKeys {
    /// KEYCODE_POWER: toggles; the power logic sends it only when the TV is not as asked.
    static let power: UInt64 = 26
    static let volumeUp: UInt64 = 24
    static let volumeDown: UInt64 = 25
    static let volumeMute: UInt64 = 164

    static let shared: [SharedKey: AndroidTVKeyCode] = [
        .powerOn: .power(.on), .powerOff: .power(.off),
        .home: .code(3), .back: .code(4), .up: .code(19), .down: .code(20), .left: .code(21), .right: .code(22),
        .select: .code(23), .playPause: .code(85), .play: .code(126), .pause: .code(127), .stop: .code(86),
        .rewind: .code(89), .fastForward: .code(90), .replay: .code(273), .info: .code(165), .menu: .code(82),
        .volumeUp: .code(24), .volumeDown: .code(25),
        // KEYCODE_VOLUME_MUTE; KEYCODE_MUTE (91) mutes the microphone.
        .mute: .code(164),
        .channelUp: .code(166), .channelDown: .code(167),
        .inputHDMI1: .code(243), .inputHDMI2: .code(244), .inputHDMI3: .code(245), .inputHDMI4: .code(246),
        .inputTuner: .code(170), .search: .code(84),
    ]

    /// The Android names accepted as vendor keys: the ones a TV remote has.
    static let vendor: [String: UInt64] = [
        "0": 7, "1": 8, "2": 9, "3": 10, "4": 11, "5": 12, "6": 13, "7": 14, "8": 15, "9": 16,
        "DPAD_CENTER": 23, "ENTER": 66, "DEL": 67, "POWER": 26, "SLEEP": 223, "WAKEUP": 224, "TV_POWER": 177,
        "MEDIA_NEXT": 87, "MEDIA_PREVIOUS": 88, "MEDIA_RECORD": 130, "MEDIA_AUDIO_TRACK": 222,
        "MEDIA_SKIP_FORWARD": 272, "MEDIA_SKIP_BACKWARD": 273, "GUIDE": 172, "DVR": 173, "BOOKMARK": 174,
        "CAPTIONS": 175, "SETTINGS": 176, "TV_INPUT": 178, "PROG_RED": 183, "PROG_GREEN": 184,
        "PROG_YELLOW": 185, "PROG_BLUE": 186, "APP_SWITCH": 187, "ASSIST": 219, "LAST_CHANNEL": 229,
        "TV_TELETEXT": 233, "ALL_APPS": 284, "NOTIFICATION": 83, "TV": 170, "BUTTON_A": 96, "BUTTON_B": 97,
        "ESCAPE": 111, "MEDIA_PLAY_PAUSE": 85, "MEDIA_STOP": 86,
    ]

    static func code(for key: TVKey) throws(CommandRejection) -> AndroidTVKeyCode {
        switch key {
        case .shared(let shared):
            guard let code = Self.shared[shared] else {
                throw CommandRejection("key \(shared.rawValue): not on Android TVs")
            }
            return code
        case .vendor(let name):
            var upper = name.uppercased()
            if upper.hasPrefix("KEYCODE_") { upper.removeFirst("KEYCODE_".count) }
            guard let code = vendor[upper] else {
                throw CommandRejection(
                    "unknown Android TV key '\(printable(name))' (Android key names: GUIDE, PROG_RED, 0-9, …)")
            }
            return .code(code)
        }
    }
}
