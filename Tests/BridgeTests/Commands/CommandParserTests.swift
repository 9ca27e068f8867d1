import MQTTInterface
import TVModel
import TestSupport
import Testing
import Wire

@testable import Bridge

private func parse(_ property: String?, _ text: String) throws -> [TVCommand] {
    try CommandParser.parse(property: property, payload: Array(text.utf8), controls: CommandParserTests.controls)
        .commands
}

private func refusal(_ property: String?, _ payload: [UInt8]) -> String? {
    do {
        _ = try CommandParser.parse(property: property, payload: payload, controls: CommandParserTests.controls)
        return nil
    } catch {
        return error.message
    }
}

@Suite("Command parsing", .cpuBound)
struct CommandParserTests {
    /// The controls the parser is given: a switch as the Samsung driver declares art mode, and
    /// a select, both test data (the bridge gives the parser its vendors' `controls`).
    static let controls = [
        DeclaredControl(key: "art_mode", platform: .switch, name: "Art mode"),
        DeclaredControl(key: "picture_mode", platform: .select, name: "Picture mode", options: ["vivid", "movie"]),
    ]

    @Test("a declared control is a property and a JSON member, its value one it takes")
    func declaredControls() throws {
        #expect(try parse("art_mode", " on\n") == [.control(key: "art_mode", value: "ON")])
        #expect(try parse(nil, #"{"art_mode":false}"#) == [.control(key: "art_mode", value: "OFF")])
        #expect(try parse(nil, #"{"picture_mode":"movie"}"#) == [.control(key: "picture_mode", value: "movie")])
        #expect(refusal("art_mode", Array("maybe".utf8)) == "art_mode: expected ON or OFF, got 'maybe'")
        #expect(
            refusal("picture_mode", Array("dim".utf8)) == "picture_mode: expected one of vivid, movie, got 'dim'")
        // Carried out right after power, as the list says.
        #expect(
            try parse(nil, #"{"input":"HDMI1","art_mode":"ON","power":"ON"}"#) == [
                .power(.on), .control(key: "art_mode", value: "ON"), .input("HDMI1"),
            ])
        // A control cannot take over a property of the list.
        let shadow = [DeclaredControl(key: "power", platform: .switch, name: "Power")]
        #expect(CommandParser.properties(shadow) == CommandProperty.allCases.map(\.rawValue))
    }
    @Test("the JSON command forms parse")
    func specJSONForms() throws {
        #expect(try parse(nil, #"{"key":"VolumeUp","repeat":3}"#) == [.key(.vendor("VolumeUp"), repeat: 3)])
        #expect(try parse(nil, #"{"power":"ON"}"#) == [.power(.on)])
        #expect(try parse(nil, #"{"app":"Netflix"}"#) == [.app("Netflix")])
        #expect(try parse(nil, #"{"text":"harry potter"}"#) == [.text("harry potter")])
        #expect(try parse(nil, #"{"input":"HDMI1"}"#) == [.input("HDMI1")])
        #expect(try parse(nil, #"{"volume":25}"#) == [.volume(25)])
        #expect(try parse(nil, #"{"mute":"ON"}"#) == [.mute(true)])
        #expect(
            try parse(nil, #"{"launch":{"app":"12","contentId":"80057281","mediaType":"movie"}}"#)
                == [.launch(appID: "12", contentID: "80057281", mediaType: "movie")])
        #expect(try parse(nil, #"{"key":"home"}"#) == [.key(.shared(.home), repeat: 1)])
    }

    @Test("several commands in one message run in a fixed order: power first, text last")
    func orderedCommands() throws {
        #expect(
            try parse(nil, #"{"text":"x","key":"select","power":"ON","app":"Netflix"}"#)
                == [.power(.on), .app("Netflix"), .key(.shared(.select), repeat: 1), .text("x")])
    }

    @Test("plain property payloads parse, case-insensitive where it is natural")
    func plainProperties() throws {
        #expect(try parse("power", "off") == [.power(.off)])
        #expect(try parse("power", "TOGGLE\n") == [.power(.toggle)])
        #expect(try parse("key", "KEY_VOLUP") == [.key(.vendor("KEY_VOLUP"), repeat: 1)])
        #expect(try parse("app", "MLB.TV®") == [.app("MLB.TV®")])
        #expect(try parse("volume", " 100 ") == [.volume(100)])
        #expect(try parse("mute", "off") == [.mute(false)])
        #expect(try parse("text", "  spaces kept  ") == [.text("  spaces kept  ")])
    }

    @Test("the transaction is kept, also when the command is refused")
    func transaction() throws {
        let parsed = try CommandParser.parse(
            property: nil, payload: Array(#"{"key":"home","transaction":"t1"}"#.utf8),
            controls: CommandParserTests.controls)
        #expect(parsed.transaction == "t1")
        #expect(
            throws: CommandParseError(message: "volume: expected a whole number from 0 to 100, got 101", transaction: 7)
        ) {
            try CommandParser.parse(
                property: nil, payload: Array(#"{"volume":101,"transaction":7}"#.utf8),
                controls: CommandParserTests.controls)
        }
    }

    @Test(
        "bad commands are refused with a reason before anything is sent",
        arguments: [
            (nil, #"{"key":"../launch/12"}"#, "key: '../launch/12' is not a key name"),
            (nil, #"{"key":"%2F"}"#, "key: '%2F' is not a key name"),
            ("key", "Home\r\nHost: evil", "is not a key name"),
            ("key", "Home\u{0}", "is not a key name"),
            (nil, #"{"app":"Netflix\nX"}"#, "app: 'Netflix\\u{a}X' is not a valid name"),
            (nil, #"{"text":"line1\nline2"}"#, "text: control characters"),
            (nil, #"{"volume":"loud"}"#, "volume: expected a whole number from 0 to 100, got 'loud'"),
            (nil, #"{"volume":25.5}"#, "volume: expected a whole number from 0 to 100, got 25.5"),
            ("volume", "-1", "volume: expected a whole number from 0 to 100"),
            (nil, #"{"key":"home","repeat":21}"#, "repeat: expected a whole number from 1 to 20, got 21"),
            (nil, #"{"repeat":2}"#, "repeat needs a key"),
            (nil, #"{"power":"maybe"}"#, "power: expected ON, OFF or TOGGLE"),
            (nil, #"{"key":5}"#, "key: expected a string, got number"),
            (nil, #"{"frobnicate":1}"#, "unknown command 'frobnicate'"),
            (nil, "{}", "no command in the message"),
            (nil, "[1,2]", "expected a JSON object"),
            (nil, "home", "payload is not valid JSON"),
            (nil, String(repeating: "[", count: 20) + String(repeating: "]", count: 20), "payload is not valid JSON"),
            ("sleep", "5", "unknown property 'sleep'"),
            // mosquitto refuses such a topic itself (it disconnects the publisher); another broker may not.
            ("ke\r\ny", "5", "unknown property 'ke\\u{d}\\u{a}y' (known:"),
            (nil, #"{"launch":{"contentId":"x"}}"#, "launch: needs an app"),
            (nil, #"{"text":""}"#, "text: empty"),
            // Found by Tests/Fuzz (command): unknown names reached the message raw, so a DEL or a
            // newline in a JSON key went into the log line and the published error.
            (
                nil, "{\"launch\":{\"app\":\"12\",\"c\u{7F}jtentId\":\"80057Strivie\"}}",
                "launch: unknown field 'c\\u{7f}jtentId'"
            ),
            (nil, #"{"a\nb":1}"#, "unknown command 'a\\u{a}b'"),
            (nil, #"{"k\r\n":1,"k\r\n":2}"#, #"duplicate member 'k\u000d\u000a'"#),
        ])
    func refused(property: String?, payload: String, expected: String) {
        let message = refusal(property, Array(payload.utf8)) ?? "accepted"
        #expect(message.contains(expected), "got: \(message)")
    }

    @Test("a 70 KB payload and invalid UTF-8 are refused")
    func sizeAndEncoding() {
        #expect(refusal(nil, [UInt8](repeating: 0x20, count: 70_000))?.contains("exceeds the 64 KiB limit") == true)
        #expect(refusal("text", [0x68, 0xC3, 0x28]) == "payload is not valid UTF-8")
        #expect(refusal("text", Array(String(repeating: "é", count: 256).utf8))?.contains("256 characters") == true)
    }
}

@Suite("Topics", .cpuBound)
struct TopicsTests {
    let topics = Topics(base: "tv2mqtt", homeAssistantStatus: "homeassistant/status")

    @Test("incoming topics are routed")
    func routes() {
        #expect(topics.route("tv2mqtt/roku_x1/set") == .command(tv: "roku_x1", property: nil))
        #expect(topics.route("tv2mqtt/roku_x1/set/key") == .command(tv: "roku_x1", property: "key"))
        #expect(topics.route("tv2mqtt/bridge/request/tv/remove") == .request("tv/remove"))
        #expect(topics.route("homeassistant/status") == .homeAssistantStatus)
        #expect(topics.route("tv2mqtt/roku_x1/state") == nil)
        #expect(topics.route("tv2mqtt/bridge/set") == nil)
        #expect(topics.route("other/roku_x1/set") == nil)
        #expect(topics.route("tv2mqtt//set") == nil)
    }

    @Test("a base topic with several levels works")
    func multiLevelBase() {
        let nested = Topics(base: "home/tv", homeAssistantStatus: "homeassistant/status")
        #expect(nested.route("home/tv/samsung_1/set/power") == .command(tv: "samsung_1", property: "power"))
        #expect(nested.state(TVID("samsung_1")!) == "home/tv/samsung_1/state")
    }
}

@Suite("State document", .cpuBound)
struct StateDocumentTests {
    @Test("the state document, unknown fields left out")
    func document() {
        let snapshot = TVSnapshot(
            reachable: true, power: true, powerMode: "PowerOn", app: "Netflix", appID: "12", input: nil,
            mediaState: .playing, position: 73.3, duration: 5400, volume: 18, muted: false, limitedMode: false)
        let json = StateDocument.json(snapshot, host: "127.0.0.2", reportsInput: true, lastSeen: 1_795_341_600)
        #expect(
            json.serialized()
                == #"{"app":"Netflix","app_id":"12","duration":5400,"host":"127.0.0.2","input":null,"last_seen":"2026-11-22T10:00:00Z","limited_mode":false,"media_state":"playing","muted":false,"position":73.3,"power":"ON","power_mode":"PowerOn","volume":18}"#
        )
    }

    @Test("a TV that cannot say which input shows (Tizen) leaves input out; one that can says null over an app")
    func inputUnknownOrNone() {
        let snapshot = TVSnapshot(reachable: true, power: true, app: "Netflix", appID: "12")
        let samsung = StateDocument.json(snapshot, host: "127.0.0.2", reportsInput: false, lastSeen: nil)
        #expect(samsung.serialized() == #"{"app":"Netflix","app_id":"12","host":"127.0.0.2","power":"ON"}"#)
        let roku = StateDocument.json(snapshot, host: "127.0.0.2", reportsInput: true, lastSeen: nil)
        #expect(roku["input"] == .null)
    }

    @Test("an unreachable TV is OFF with nothing else claimed")
    func unreachable() {
        let json = StateDocument.json(.unreachable, host: "127.0.0.2", reportsInput: true, lastSeen: nil)
        #expect(json.serialized() == #"{"host":"127.0.0.2","power":"OFF"}"#)
    }
}
