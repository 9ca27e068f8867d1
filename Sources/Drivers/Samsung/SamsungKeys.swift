import TVModel

/// What a key command becomes on a Samsung TV.
public enum SamsungKeyCode: Equatable, Sendable {
    /// A `KEY_…` code for `ms.remote.control`.
    case remote(String)
    /// `power_on` / `power_off`: not a key but the power logic (WoL, state check, KEY_POWER).
    case power(PowerAction)
}

/// The Samsung key vocabulary: the shared names (`SharedKey`) mapped to `KEY_…` codes, the
/// vendor codes we let through (an allowlist), and the ones we refuse with a reason.
///
/// Key codes come from samsungtvws `COMMANDS.md` and the Tizen key tables; there is no
/// official list. Anything not on the allowlist is refused: the vendor has hundreds of
/// codes, some of which enter service menus or change settings irreversibly.
public enum SamsungKeys {
    /// The shared vocabulary. Choices where Samsung has no exact key:
    /// - `play_pause` → `KEY_PLAY_BACK`, the Smart Remote's combined ⏯ button (XF86PlayBack);
    ///   the driver cannot track play state, so a toggle key is the only honest mapping.
    /// - `replay` → `KEY_REWIND`: Tizen has no instant-replay key; rewind is the nearest.
    /// - `search` → `KEY_SEARCH` (opens search on models with it; ignored elsewhere).
    /// - `input_tuner` → `KEY_TV` (the live-TV source).
    public static let shared: [SharedKey: SamsungKeyCode] = [
        .powerOn: .power(.on), .powerOff: .power(.off),
        .home: .remote("KEY_HOME"), .back: .remote("KEY_RETURN"),
        .up: .remote("KEY_UP"), .down: .remote("KEY_DOWN"), .left: .remote("KEY_LEFT"),
        .right: .remote("KEY_RIGHT"),
        .select: .remote("KEY_ENTER"), .playPause: .remote("KEY_PLAY_BACK"), .play: .remote("KEY_PLAY"),
        .pause: .remote("KEY_PAUSE"), .stop: .remote("KEY_STOP"), .rewind: .remote("KEY_REWIND"),
        .fastForward: .remote("KEY_FF"), .replay: .remote("KEY_REWIND"), .info: .remote("KEY_INFO"),
        .menu: .remote("KEY_MENU"), .volumeUp: .remote("KEY_VOLUP"),
        .volumeDown: .remote("KEY_VOLDOWN"),
        .mute: .remote("KEY_MUTE"), .channelUp: .remote("KEY_CHUP"),
        .channelDown: .remote("KEY_CHDOWN"),
        .inputHDMI1: .remote("KEY_HDMI1"), .inputHDMI2: .remote("KEY_HDMI2"),
        .inputHDMI3: .remote("KEY_HDMI3"),
        .inputHDMI4: .remote("KEY_HDMI4"), .inputTuner: .remote("KEY_TV"),
        .search: .remote("KEY_SEARCH"),
    ]

    /// Vendor codes accepted as they are: the keys of a Samsung remote and their common
    /// aliases. Everything here is something a person can press on a remote without risk.
    public static let allowed: Set<String> = {
        var keys: Set<String> = [
            // navigation and menus
            "KEY_UP", "KEY_DOWN", "KEY_LEFT", "KEY_RIGHT", "KEY_ENTER", "KEY_RETURN", "KEY_EXIT",
            "KEY_HOME",
            "KEY_MENU", "KEY_GUIDE", "KEY_TOOLS", "KEY_INFO", "KEY_SEARCH", "KEY_CONTENTS",
            "KEY_APP_LIST",
            // volume and channels
            "KEY_VOLUP", "KEY_VOLDOWN", "KEY_MUTE", "KEY_CHUP", "KEY_CHDOWN", "KEY_CH_LIST", "KEY_PRECH",
            "KEY_FAVCH",
            // colour keys (KEY_CYAN is the older name of blue)
            "KEY_RED", "KEY_GREEN", "KEY_YELLOW", "KEY_BLUE", "KEY_CYAN",
            // media
            "KEY_PLAY", "KEY_PAUSE", "KEY_PLAY_BACK", "KEY_STOP", "KEY_FF", "KEY_REWIND", "KEY_REC",
            // sources
            "KEY_SOURCE", "KEY_TV", "KEY_DTV", "KEY_HDMI", "KEY_HDMI1", "KEY_HDMI2", "KEY_HDMI3",
            "KEY_HDMI4",
            "KEY_AV1", "KEY_AV2", "KEY_COMPONENT1", "KEY_COMPONENT2",
            // picture, sound and accessibility shortcuts
            "KEY_PICTURE_SIZE", "KEY_ASPECT", "KEY_PMODE", "KEY_CAPTION", "KEY_SUB_TITLE", "KEY_AD",
            "KEY_MTS",
            "KEY_SLEEP", "KEY_AMBIENT",
        ]
        for digit in 0...9 { keys.insert("KEY_\(digit)") }
        return keys
    }()

    /// Codes refused on purpose, with the reason given to the user.
    public static let blocked: [String: String] = [
        "KEY_FACTORY":
            "KEY_FACTORY opens the factory service menu, where one wrong setting can disable the TV",
        "KEY_3SPEED": "KEY_3SPEED is a factory/service key (listed with KEY_FACTORY as an admin key)",
        "KEY_AUTO_PROGRAM":
            "KEY_AUTO_PROGRAM starts a channel scan that replaces the TV's channel list",
        "KEY_POWER":
            "KEY_POWER toggles the power, so it could turn the TV on when you meant off; use the power command "
            + "(set/power ON, OFF or TOGGLE), which checks the TV's state first",
        "KEY_POWEROFF": "KEY_POWEROFF is ignored by Tizen TVs; use the power command (set/power OFF)",
        "KEY_POWERON": "KEY_POWERON is ignored by Tizen TVs; use the power command (set/power ON)",
    ]

    /// Prefixes of code families refused on purpose: the production-line test keys.
    public static let blockedPrefixes: [(prefix: String, reason: String)] = [
        (
            "KEY_AUTO_ARC_",
            "KEY_AUTO_ARC_… keys are factory test keys (automatic calibration and resets)"
        )
    ]

    /// Resolves a key to what the driver sends, or says why not. Vendor names are matched
    /// case-insensitively (`key_volup` is `KEY_VOLUP`).
    public static func resolve(_ key: TVKey) throws(CommandRejection) -> SamsungKeyCode {
        switch key {
        case .shared(let name):
            guard let code = shared[name] else {
                throw CommandRejection("key \"\(name.rawValue)\" has no Samsung equivalent")
            }
            return code
        case .vendor(let name):
            return .remote(try vendorCode(name))
        }
    }

    /// Checks a key without resolving it.
    public static func validate(_ key: TVKey) throws(CommandRejection) {
        _ = try resolve(key)
    }

    private static func vendorCode(_ name: String) throws(CommandRejection) -> String {
        guard !name.isEmpty, name.utf8.count <= TVKey.maxNameLength,
            name.utf8.allSatisfy({
                $0 == UInt8(ascii: "_") || ($0 >= 0x30 && $0 <= 0x39)
                    || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A)
            })
        else {
            throw CommandRejection(
                "\"\(name.prefix(TVKey.maxNameLength))\" is not a key name (expected KEY_… or a shared key such as volume_up)"
            )
        }
        let code = name.uppercased()
        if let reason = blocked[code] { throw CommandRejection("refused: \(reason)") }
        for entry in blockedPrefixes where code.hasPrefix(entry.prefix) {
            throw CommandRejection("refused: \(entry.reason)")
        }
        guard allowed.contains(code) else {
            throw CommandRejection(
                "key \"\(name)\" is not on the Samsung allowlist; use a shared key (volume_up, home…) or a common "
                    + "remote key such as KEY_VOLUP, KEY_SOURCE, KEY_0…KEY_9")
        }
        return code
    }
}
