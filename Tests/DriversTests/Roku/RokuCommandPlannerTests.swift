import Drivers
import TVModel
import TestSupport
import Testing

@Suite("Roku command validation and key mapping", .cpuBound)
struct RokuCommandPlannerTests {
    static let apps = [
        RokuApp(id: "tvinput.hdmi2", name: "Satellite TV", type: "tvin"),
        RokuApp(id: "tvinput.hdmi1", name: "Blu-ray player", type: "tvin"),
        RokuApp(id: "tvinput.dtv", name: "Antenna TV", type: "tvin"),
        RokuApp(id: "12", name: "Netflix"), RokuApp(id: "837", name: "YouTube"),
    ]
    static let tvCapabilities = TVCapabilities(
        power: true, volumeKeys: true, inputs: ["Satellite TV", "Blu-ray player", "Antenna TV"],
        apps: ["Netflix", "YouTube"], keyboard: true, mediaState: true, limitedMode: true,
        channels: true)
    static let tv = RokuCommandPlanner(capabilities: tvCapabilities, apps: apps)
    static let stick = RokuCommandPlanner(
        capabilities: TVCapabilities(
            apps: ["Netflix", "YouTube"], keyboard: true, mediaState: true, limitedMode: true),
        apps: [RokuApp(id: "12", name: "Netflix"), RokuApp(id: "837", name: "YouTube")])

    static let sharedMapping: [(SharedKey, String)] = [
        (.powerOn, "PowerOn"), (.powerOff, "PowerOff"), (.home, "Home"), (.back, "Back"), (.up, "Up"),
        (.down, "Down"), (.left, "Left"), (.right, "Right"), (.select, "Select"), (.playPause, "Play"),
        (.play, "Play"), (.pause, "Play"), (.rewind, "Rev"), (.fastForward, "Fwd"),
        (.replay, "InstantReplay"),
        (.info, "Info"), (.menu, "Info"), (.volumeUp, "VolumeUp"), (.volumeDown, "VolumeDown"),
        (.mute, "VolumeMute"), (.channelUp, "ChannelUp"), (.channelDown, "ChannelDown"),
        (.inputHDMI1, "InputHDMI1"), (.inputHDMI2, "InputHDMI2"), (.inputHDMI3, "InputHDMI3"),
        (.inputHDMI4, "InputHDMI4"), (.inputTuner, "InputTuner"), (.search, "Search"),
    ]

    @Test("every shared key but stop maps to a Roku key", arguments: sharedMapping)
    func shared(key: SharedKey, roku: String) throws {
        #expect(try Self.tv.plan(.key(.shared(key), repeat: 2)) == .keypress(roku, repeat: 2))
    }

    @Test("the mapping table covers the whole shared vocabulary")
    func coverage() {
        let mapped = Set(Self.sharedMapping.map(\.0.rawValue)).union(["stop"])
        #expect(mapped == Set(SharedKey.allCases.map(\.rawValue)))
    }

    @Test("stop is refused: a Roku has no stop key")
    func stop() {
        let error = #expect(throws: CommandRejection.self) {
            try Self.tv.plan(.key(.shared(.stop), repeat: 1))
        }
        #expect(error?.message.contains("no stop key") == true)
    }

    @Test(
        "vendor keys are matched case-insensitively and canonicalised",
        arguments: [
            ("volumeup", "VolumeUp"), ("HOME", "Home"), ("backspace", "Backspace"), ("Enter", "Enter"),
            ("inputav1", "InputAV1"), ("instantreplay", "InstantReplay"), ("findremote", "FindRemote"),
            ("Lit_a", "Lit_a"), ("lit_Z", "Lit_Z"), ("LIT_5", "Lit_5"),
        ])
    func vendor(name: String, canonical: String) throws {
        #expect(try Self.tv.plan(.key(.vendor(name), repeat: 1)) == .keypress(canonical, repeat: 1))
    }

    @Test(
        "unknown vendor keys and bad Lit_ keys are refused, naming the key",
        arguments: [
            "Foo", "KEY_VOLUP", "Lit_", "Lit_ab", "Sleep", "Home2",
        ])
    func unknownVendor(name: String) {
        let error = #expect(throws: CommandRejection.self) {
            try Self.tv.plan(.key(.vendor(name), repeat: 1))
        }
        #expect(error?.message.contains("unknown Roku key '\(name)'") == true)
        #expect(error?.message.contains("known keys: Home") == true)
    }

    @Test("the Power toggle key becomes a state-checked toggle")
    func powerToggleKey() throws {
        #expect(try Self.tv.plan(.key(.vendor("power"), repeat: 1)) == .power(.toggle))
    }

    @Test(
        "TV keys are refused on a stick",
        arguments: [
            TVCommand.key(.shared(.powerOn), repeat: 1), .key(.shared(.volumeUp), repeat: 1),
            .key(.vendor("VolumeMute"), repeat: 1), .key(.shared(.channelUp), repeat: 1),
            .key(.shared(.inputHDMI1), repeat: 1), .key(.vendor("InputAV1"), repeat: 1), .power(.on),
            .power(.off),
            .input("HDMI1"),
        ])
    func stickRefuses(command: TVCommand) {
        let error = #expect(throws: CommandRejection.self) { try Self.stick.plan(command) }
        #expect(error?.message.contains("streaming player") == true)
    }

    @Test("a stick that drives the TV's volume keeps the volume keys")
    func stickWithVolume() throws {
        var stick = Self.stick
        stick.capabilities.volumeKeys = true
        #expect(try stick.plan(.key(.shared(.volumeUp), repeat: 1)) == .keypress("VolumeUp", repeat: 1))
        #expect(throws: CommandRejection.self) { try stick.plan(.key(.shared(.powerOff), repeat: 1)) }
    }

    @Test("repeat is bounded")
    func repeatBounds() {
        #expect(throws: CommandRejection.self) { try Self.tv.plan(.key(.shared(.up), repeat: 0)) }
        #expect(throws: CommandRejection.self) { try Self.tv.plan(.key(.shared(.up), repeat: 21)) }
    }

    @Test("text becomes one percent-encoded Lit_ key per character")
    func text() throws {
        #expect(
            try Self.tv.plan(.text("a b€/?%"))
                == .text([
                    "Lit_a", "Lit_%20", "Lit_b", "Lit_%E2%82%AC", "Lit_%2F", "Lit_%3F", "Lit_%25",
                ]))
        #expect(RokuKeys.literal("é") == "Lit_%C3%A9")
        #expect(RokuKeys.literal("~") == "Lit_~")
        #expect(RokuKeys.literal("+") == "Lit_%2B")
    }

    @Test(
        "text with control characters, empty or too long is refused",
        arguments: [
            "", "line\nbreak", "nul\u{0}", "tab\t", String(repeating: "x", count: 256), "line\u{2028}separator",
        ])
    func badText(text: String) {
        #expect(throws: CommandRejection.self) { try Self.tv.plan(.text(text)) }
    }

    @Test("apps by name (any case) or id; home by name")
    func apps() throws {
        #expect(
            try Self.tv.plan(.app("netflix")) == .launch(appID: "12", contentID: nil, mediaType: nil))
        #expect(try Self.tv.plan(.app("837")) == .launch(appID: "837", contentID: nil, mediaType: nil))
        #expect(try Self.tv.plan(.app("Roku")) == .keypress("Home", repeat: 1))
        let error = #expect(throws: CommandRejection.self) { try Self.tv.plan(.app("Hulu")) }
        #expect(error?.message == "unknown app 'Hulu'; installed apps: Netflix, YouTube")
        // A name from the peer is shown as the bridge shows it: controls escaped, not replaced.
        let escaped = #expect(throws: CommandRejection.self) { try Self.tv.plan(.app("Hu\r\nlu\u{85}")) }
        #expect(escaped?.message == "unknown app 'Hu\\u{d}\\u{a}lu\\u{85}'; installed apps: Netflix, YouTube")
        // An input is not an app.
        #expect(throws: CommandRejection.self) { try Self.tv.plan(.app("Antenna TV")) }
    }

    @Test("launch checks the id and the deep-link parameters")
    func launch() throws {
        #expect(
            try Self.tv.plan(.launch(appID: "12", contentID: "s1 e2&x", mediaType: "episode"))
                == .launch(appID: "12", contentID: "s1 e2&x", mediaType: "episode"))
        #expect(
            try Self.tv.plan(.launch(appID: "YouTube", contentID: nil, mediaType: nil))
                == .launch(appID: "837", contentID: nil, mediaType: nil))
        #expect(
            try Self.tv.plan(.launch(appID: "dev_app.1-2", contentID: nil, mediaType: nil))
                == .launch(appID: "dev_app.1-2", contentID: nil, mediaType: nil))
        for bad in ["../x", "12?x=1", "a b", ""] {
            #expect(throws: CommandRejection.self) {
                try Self.tv.plan(.launch(appID: bad, contentID: nil, mediaType: nil))
            }
        }
        #expect(throws: CommandRejection.self) {
            try Self.tv.plan(.launch(appID: "12", contentID: "a\r\nb", mediaType: nil))
        }
        #expect(throws: CommandRejection.self) {
            try Self.tv.plan(
                .launch(appID: "12", contentID: String(repeating: "1", count: 256), mediaType: nil))
        }
    }

    @Test("a deep link's media type and a search's type are the Roku's own rules, checked here")
    func deepLinkAndSearchTypes() throws {
        func refusal(_ command: TVCommand) -> String? {
            do {
                _ = try Self.tv.plan(command)
                return nil
            } catch {
                return error.message
            }
        }
        #expect(
            refusal(.launch(appID: "12", contentID: "x", mediaType: "podcast"))
                == "launch.mediaType: expected one of series, season, episode, movie, shortFormVideo, tvSpecial, special, live, got 'podcast'"
        )
        #expect(refusal(.launch(appID: "12", contentID: "x", mediaType: "movie")) == nil)
        #expect(
            refusal(.search(SearchRequest(keyword: "x", type: "song")))
                == "search.type: expected one of movie, tv-show, person, channel, game")
        #expect(refusal(.search(SearchRequest(keyword: "x", type: "tv-show"))) == nil)
    }

    @Test("inputs by the TV's name, by id, or by alias; unknown ones refused")
    func inputs() throws {
        let hdmi1 = RokuAction.launch(appID: "tvinput.hdmi1", contentID: nil, mediaType: nil)
        #expect(try Self.tv.plan(.input("Blu-ray player")) == hdmi1)
        #expect(try Self.tv.plan(.input("HDMI1")) == hdmi1)
        #expect(try Self.tv.plan(.input("hdmi 1")) == hdmi1)
        #expect(try Self.tv.plan(.input("tvinput.hdmi1")) == hdmi1)
        #expect(
            try Self.tv.plan(.input("Live TV"))
                == .launch(appID: "tvinput.dtv", contentID: nil, mediaType: nil))
        let error = #expect(throws: CommandRejection.self) { try Self.tv.plan(.input("HDMI4")) }
        #expect(
            error?.message == "unknown input 'HDMI4'; inputs: Satellite TV, Blu-ray player, Antenna TV")
        // Without an app list, the Input… key is the only way.
        let noList = RokuCommandPlanner(capabilities: Self.tvCapabilities, apps: [])
        #expect(try noList.plan(.input("HDMI3")) == .keypress("InputHDMI3", repeat: 1))
    }

    @Test("volume and mute levels are refused with what to use instead")
    func volume() {
        let error = #expect(throws: CommandRejection.self) { try Self.tv.plan(.volume(20)) }
        #expect(error?.message.contains("use the volume_up, volume_down and mute keys") == true)
        #expect(throws: CommandRejection.self) { try Self.tv.plan(.mute(true)) }
    }
}
