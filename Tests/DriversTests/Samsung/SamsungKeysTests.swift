import Drivers
import TVModel
import TestSupport
import Testing

@Suite("Samsung keys", .cpuBound)
struct SamsungKeysTests {
    @Test(
        "the shared vocabulary maps to KEY_ codes",
        arguments: [
            ("home", "KEY_HOME"), ("back", "KEY_RETURN"), ("up", "KEY_UP"), ("down", "KEY_DOWN"),
            ("left", "KEY_LEFT"),
            ("right", "KEY_RIGHT"), ("select", "KEY_ENTER"), ("play_pause", "KEY_PLAY_BACK"),
            ("play", "KEY_PLAY"),
            ("pause", "KEY_PAUSE"), ("stop", "KEY_STOP"), ("rewind", "KEY_REWIND"),
            ("fast_forward", "KEY_FF"),
            ("replay", "KEY_REWIND"), ("info", "KEY_INFO"), ("menu", "KEY_MENU"),
            ("volume_up", "KEY_VOLUP"),
            ("volume_down", "KEY_VOLDOWN"), ("mute", "KEY_MUTE"), ("channel_up", "KEY_CHUP"),
            ("channel_down", "KEY_CHDOWN"), ("input_hdmi1", "KEY_HDMI1"), ("input_hdmi2", "KEY_HDMI2"),
            ("input_hdmi3", "KEY_HDMI3"), ("input_hdmi4", "KEY_HDMI4"), ("input_tuner", "KEY_TV"),
            ("search", "KEY_SEARCH"),
        ])
    func shared(name: String, code: String) throws {
        #expect(try SamsungKeys.resolve(TVKey(name)) == .remote(code))
        #expect(
            SamsungKeys.allowed.contains(code), "a shared mapping is also allowed by its vendor name")
    }

    @Test("every shared key has a mapping; power keys go to the power logic")
    func complete() throws {
        for key in SharedKey.allCases { #expect(SamsungKeys.shared[key] != nil, "\(key.rawValue)") }
        #expect(try SamsungKeys.resolve(.shared(.powerOn)) == .power(.on))
        #expect(try SamsungKeys.resolve(.shared(.powerOff)) == .power(.off))
    }

    @Test(
        "allowlisted vendor codes pass, case-insensitively",
        arguments: [
            "KEY_VOLUP", "KEY_0", "KEY_9", "KEY_SOURCE", "KEY_GUIDE", "KEY_TOOLS", "KEY_RED",
            "KEY_CH_LIST", "key_home", "Key_Exit",
        ])
    func allowed(name: String) throws {
        #expect(try SamsungKeys.resolve(.vendor(name)) == .remote(name.uppercased()))
    }

    @Test(
        "blocked codes are refused with the reason",
        arguments: [
            ("KEY_FACTORY", "factory service menu"), ("key_factory", "factory service menu"),
            ("KEY_3SPEED", "factory/service key"), ("KEY_AUTO_PROGRAM", "channel scan"),
            ("KEY_AUTO_ARC_RESET", "factory test keys"), ("KEY_POWER", "use the power command"),
            ("KEY_POWEROFF", "ignored by Tizen"), ("KEY_POWERON", "ignored by Tizen"),
        ])
    func blocked(name: String, reason: String) {
        #expect {
            try SamsungKeys.validate(.vendor(name))
        } throws: { error in
            (error as? CommandRejection)?.message.contains(reason) == true
                && (error as? CommandRejection)?.message.hasPrefix("refused") == true
        }
    }

    @Test(
        "unknown and malformed names are refused, saying what would work",
        arguments: [
            "KEY_NOPE", "VolumeUp", "KEY_EXT41", "", "KEY VOLUP", "KEY_VOLUP\n", "KEY_\u{00C9}",
            String(repeating: "K", count: 200),
        ])
    func unknown(name: String) {
        #expect(throws: CommandRejection.self) { try SamsungKeys.validate(.vendor(name)) }
    }

    @Test("the unknown-key message names alternatives")
    func message() {
        do {
            try SamsungKeys.validate(.vendor("KEY_NOPE"))
            Issue.record("accepted")
        } catch {
            #expect(error.message.contains("allowlist"))
            #expect(error.message.contains("KEY_VOLUP"))
        }
    }
}
