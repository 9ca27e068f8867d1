/// One bad command of the catalogue (Tests/BAD-INPUT.md): what is published to
/// `<base>/<tv>/set[/<property>]` and the `command_failed` message each TV must produce.
/// A message ending in "…" is a prefix (the rest lists keys or apps); any other is exact.
struct BadCommand: Sendable, CustomStringConvertible {
    let name: String
    let property: String?
    let payload: [UInt8]
    let roku: String
    let samsung: String

    init(_ name: String, _ property: String?, _ payload: [UInt8], roku: String, samsung: String? = nil) {
        self.name = name
        self.property = property
        self.payload = payload
        self.roku = roku
        self.samsung = samsung ?? roku
    }

    init(_ name: String, _ property: String?, _ text: String, roku: String, samsung: String? = nil) {
        self.init(name, property, Array(text.utf8), roku: roku, samsung: samsung)
    }

    var description: String { name }

    /// Whether `message` is what `expected` says (exact, or a prefix when it ends in "…").
    static func matches(_ message: String, _ expected: String) -> Bool {
        guard expected.hasSuffix("…") else { return message == expected }
        return message.hasPrefix(String(expected.dropLast()))
    }
}

private let notAKey = "is not a key name (letters, digits and _ only)"
private let notAName = "is not a valid name (control characters or too long)"
private let controlText = "text: control characters (newlines, NUL…) cannot be typed"
private let notJSON = "payload is not valid JSON (…"

/// The catalogue of bad commands: unknown keys, injection attempts, oversize payloads,
/// invalid UTF-8, wrong JSON types, deep nesting, values out of range.
let badCommands: [BadCommand] = [
    // Unknown keys, commands and properties.
    BadCommand(
        "unknown key", "key", "FactoryReset", roku: "unknown Roku key 'FactoryReset'; known keys: …",
        samsung: "key \"FactoryReset\" is not on the Samsung allowlist; …"),
    BadCommand(
        "unknown JSON command", nil, #"{"frobnicate":1}"#,
        roku:
            "unknown command 'frobnicate' (known: power, art_mode, screen, input, app, launch, volume, mute, sound_output, channel, key, repeat, hold_ms, text, search, toast)"
    ),
    BadCommand(
        "unknown property", "sleep", "5",
        roku:
            "unknown property 'sleep' (known: power, art_mode, screen, input, app, launch, volume, mute, sound_output, channel, key, text, search, toast)"
    ),
    // Held keys, search and art mode.
    BadCommand(
        "hold_ms out of range", nil, #"{"key":"right","hold_ms":10001}"#,
        roku: "hold_ms: expected a whole number from 1 to 10000, got 10001"),
    BadCommand(
        "search with a newline", "search", "harry\npotter",
        roku: "search: control characters (newlines, NUL…) cannot be searched for"),
    BadCommand(
        "art_mode neither ON nor OFF", "art_mode", "maybe", roku: "art_mode: expected ON or OFF, got 'maybe'"),
    // Screen, sound output and toast: checked by the parser, then refused by the
    // planners of TVs that have none of them.
    BadCommand("screen neither ON nor OFF", "screen", "dim", roku: "screen: expected ON or OFF, got 'dim'"),
    BadCommand(
        "toast over 255 characters", "toast", String(repeating: "x", count: 256),
        roku: "toast: 256 characters exceeds the limit of 255"),
    BadCommand(
        "toast with a control character", "toast", "ding\u{7}",
        roku: "toast: control characters other than line breaks cannot be shown"),
    BadCommand("screen on a TV without it", "screen", "OFF", roku: "screen is not supported by this TV"),
    BadCommand(
        "sound_output on a TV without it", nil, #"{"sound_output":"external_arc"}"#,
        roku: "sound_output is not supported by this TV"),
    BadCommand("toast on a TV without it", "toast", "Dinner is ready", roku: "toast is not supported by this TV"),
    // Injection attempts in keys.
    BadCommand("key with ../", "key", "../launch/12", roku: "key: '../launch/12' \(notAKey)"),
    BadCommand("key with %2F", "key", "Home%2FPowerOff", roku: "key: 'Home%2FPowerOff' \(notAKey)"),
    BadCommand(
        "key with CR/LF", "key", "Home\r\nHost: evil", roku: "key: 'Home\\u{d}\\u{a}Host: evil' \(notAKey)"),
    BadCommand("key with NUL", "key", "Home\u{0}PowerOff", roku: "key: 'Home\\u{0}PowerOff' \(notAKey)"),
    BadCommand(
        "JSON key with ../", nil, #"{"key":"../keypress/PowerOff"}"#, roku: "key: '../keypress/PowerOff' \(notAKey)"),
    // Injection attempts in app names and ids.
    BadCommand(
        "app with ../", "app", "../launch/12", roku: "unknown app '../launch/12'; installed apps: …",
        samsung: "app \"../launch/12\" is not known on this TV; add it to samsung.apps (name → id) in the configuration"
    ),
    BadCommand(
        "app with %2F", "app", "12%2F..%2Fkeypress", roku: "unknown app '12%2F..%2Fkeypress'; installed apps: …",
        samsung:
            "app \"12%2F..%2Fkeypress\" is not known on this TV; add it to samsung.apps (name → id) in the configuration"
    ),
    BadCommand("app with CR/LF", "app", "Netflix\r\nX", roku: "app: 'Netflix\\u{d}\\u{a}X' \(notAName)"),
    BadCommand("app with NUL", "app", "Net\u{0}flix", roku: "app: 'Net\\u{0}flix' \(notAName)"),
    BadCommand(
        "launch id with ../", nil, #"{"launch":{"app":"12/../../keypress/PowerOff"}}"#,
        roku: "launch: app id '12/../../keypress/PowerOff' must be letters, digits, '.', '_' or '-'",
        samsung: "app id \"12/../../keypress/PowerOff\" is not a Samsung app id (letters, digits, '.', '_' or '-')"),
    BadCommand(
        "launch id with %2F", nil, #"{"launch":{"app":"12%2F..%2Fkeypress"}}"#,
        roku: "launch: app id '12%2F..%2Fkeypress' must be letters, digits, '.', '_' or '-'",
        samsung: "app id \"12%2F..%2Fkeypress\" is not a Samsung app id (letters, digits, '.', '_' or '-')"),
    BadCommand(
        "launch id with CR/LF", nil, #"{"launch":{"app":"12\r\nX"}}"#,
        roku: "launch.app: '12\\u{d}\\u{a}X' \(notAName)"),
    BadCommand(
        "launch contentId with NUL", nil, #"{"launch":{"app":"12","contentId":"a\u0000b"}}"#,
        roku: "launch.contentId: must be 1 to 254 characters without control characters"),
    // Injection attempts in text.
    BadCommand("text with CR/LF", "text", "line\r\nPOST /keypress/PowerOff", roku: controlText),
    BadCommand("text with NUL", "text", "a\u{0}b", roku: controlText),
    BadCommand("JSON text with NUL", nil, #"{"text":"a\u0000b"}"#, roku: controlText),
    // Size and encoding.
    BadCommand(
        "JSON payload over 64 KiB", nil, [UInt8](repeating: 0x20, count: 70_000),
        roku: "payload of 70000 bytes exceeds the 64 KiB limit"),
    BadCommand(
        "text payload over 64 KiB", "text", [UInt8](repeating: 0x61, count: 65_537),
        roku: "payload of 65537 bytes exceeds the 64 KiB limit"),
    BadCommand(
        "text too long", "text", String(repeating: "é", count: 256),
        roku: "text: 256 characters exceeds the limit of 255"),
    BadCommand("invalid UTF-8 (plain)", "text", [0x68, 0xFF, 0xFE], roku: "payload is not valid UTF-8"),
    BadCommand(
        "invalid UTF-8 (in JSON)", nil, Array(#"{"text":"h"#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8),
        roku: "payload is not valid UTF-8"),
    // JSON with wrong types or deep nesting.
    BadCommand("not JSON", nil, "home", roku: notJSON),
    BadCommand("JSON array", nil, "[1,2]", roku: "expected a JSON object such as {\"key\":\"home\"}, got array"),
    BadCommand("key as a number", nil, #"{"key":5}"#, roku: "key: expected a string, got number"),
    BadCommand("power as an array", nil, #"{"power":[1]}"#, roku: "power: expected ON, OFF or TOGGLE, got array"),
    BadCommand("text as an object", nil, #"{"text":{"a":1}}"#, roku: "text: expected a string, got object"),
    BadCommand(
        "launch as a string", nil, #"{"launch":"12"}"#,
        roku: "launch: expected an object such as {\"app\":\"12\",\"contentId\":\"…\"}"),
    BadCommand("volume as a word", "volume", "loud", roku: "volume: expected a whole number from 0 to 100, got 'loud'"),
    BadCommand(
        "deep nesting", nil,
        "{\"launch\":{\"app\":" + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}}",
        roku: notJSON),
    BadCommand("empty object", nil, "{}", roku: "no command in the message"),
    // Values out of range.
    BadCommand("volume 150", "volume", "150", roku: "volume: expected a whole number from 0 to 100, got 150"),
    BadCommand("volume -1", nil, #"{"volume":-1}"#, roku: "volume: expected a whole number from 0 to 100, got -1"),
    BadCommand(
        "volume 25.5", nil, #"{"volume":25.5}"#, roku: "volume: expected a whole number from 0 to 100, got 25.5"),
    BadCommand(
        "repeat 21", nil, #"{"key":"home","repeat":21}"#, roku: "repeat: expected a whole number from 1 to 20, got 21"),
    BadCommand(
        "repeat 0", nil, #"{"key":"home","repeat":0}"#, roku: "repeat: expected a whole number from 1 to 20, got 0"),
    BadCommand("power maybe", "power", "maybe", roku: "power: expected ON, OFF or TOGGLE, got 'maybe'"),
    BadCommand("mute 2", "mute", "2", roku: "mute: expected ON or OFF, got '2'"),
]
