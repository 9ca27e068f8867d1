import TestSupport
import Testing
import Wire

@Suite("MQTT topics", .cpuBound)
struct MQTTTopicTests {
    /// (filter, topic, matches) — the examples of §4.7.1 and §4.7.2 plus edge cases.
    static let matchTable: [(String, String, Bool)] = [
        ("sport/tennis/player1/#", "sport/tennis/player1", true),
        ("sport/tennis/player1/#", "sport/tennis/player1/ranking", true),
        ("sport/tennis/player1/#", "sport/tennis/player1/score/wimbledon", true),
        ("sport/tennis/player1/#", "sport/tennis/player2", false),
        ("sport/#", "sport", true),
        ("#", "sport/tennis", true),
        ("#", "/", true),
        ("sport/tennis/+", "sport/tennis/player1", true),
        ("sport/tennis/+", "sport/tennis/player1/ranking", false),
        ("sport/+", "sport", false),
        ("sport/+", "sport/", true),
        ("+/+", "/finance", true),
        ("/+", "/finance", true),
        ("+", "/finance", false),
        ("+/tennis/#", "sport/tennis/player1", true),
        ("+/tennis/#", "sport/golf/player1", false),
        ("a/+/b", "a//b", true),
        ("a//b", "a//b", true),
        ("a/b", "a/b", true),
        ("a/b", "a/B", false),
        ("a/b", "a/b/c", false),
        ("a/b/c", "a/b", false),
        ("a/b", "a/bc", false),
        ("a/bc", "a/b", false),
        ("a/ü/+", "a/ü/x", true),
        ("a/u", "a/ü", false),
        ("#", "$SYS/broker/uptime", false),
        ("+/monitor/Clients", "$SYS/monitor/Clients", false),
        ("+", "$SYS", false),
        ("$SYS/#", "$SYS/monitor/Clients", true),
        ("$SYS/monitor/+", "$SYS/monitor/Clients", true),
        ("$SYS", "$SYS", true),
        ("a/$SYS", "a/$SYS", true),
        ("+/$x", "a/$x", true),
        ("tv2mqtt/+/set/#", "tv2mqtt/roku_1/set/power", true),
        ("tv2mqtt/+/set/#", "tv2mqtt/roku_1/set", true),
        ("tv2mqtt/+/set/#", "tv2mqtt/roku_1/state", false),
        ("homeassistant/status", "homeassistant/status", true),
        ("", "", false),
        ("#", "", false),
    ]

    @Test("filters match topics as §4.7 describes", arguments: matchTable)
    func matching(filter: String, topic: String, expected: Bool) {
        #expect(MQTTTopic.matches(filter: filter, topic: topic) == expected)
    }

    static let validFilters = [
        "#", "+", "a/#", "+/+", "/+", "a/+/b", "sport/tennis/#", "$SYS/#", "/", "a//b", "ü", "+/#",
    ]
    static let invalidFilters = ["", "a#", "a/#/b", "#/", "#/a", "a+", "+a", "a/b+/c", "##", "++", "a/\u{0}", "a/#b"]

    @Test("valid filters pass", arguments: validFilters)
    func validFilter(filter: String) throws {
        try MQTTTopic.validateFilter(filter)
    }

    @Test("invalid filters are malformed", arguments: invalidFilters)
    func invalidFilter(filter: String) {
        let error = #expect(throws: WireError.self) { try MQTTTopic.validateFilter(filter) }
        #expect(error?.kind == .malformed)
    }

    static let validNames = ["a", "/", "a/b", "$SYS/x", "ü/ñ", " ", "a//b", "tv2mqtt/roku_1/set/power"]
    static let invalidNames = ["", "a/+", "#", "a/#", "+", "a\u{0}b", "sport/tennis#"]

    @Test("valid topic names pass", arguments: validNames)
    func validName(name: String) throws {
        try MQTTTopic.validateName(name)
    }

    @Test("invalid topic names are malformed", arguments: invalidNames)
    func invalidName(name: String) {
        let error = #expect(throws: WireError.self) { try MQTTTopic.validateName(name) }
        #expect(error?.kind == .malformed)
    }

    @Test("names and filters are limited to 65535 bytes")
    func lengthLimit() throws {
        try MQTTTopic.validateName(String(repeating: "é", count: 32_767))  // 65534 bytes
        let tooLong = String(repeating: "é", count: 32_768)  // 65536 bytes
        #expect(throws: WireError.tooLarge("MQTT", "topic name is 65536 bytes; at most 65535 are allowed (§4.7.3)")) {
            try MQTTTopic.validateName(tooLong)
        }
        let error = #expect(throws: WireError.self) { try MQTTTopic.validateFilter(tooLong) }
        #expect(error?.kind == .tooLarge)
    }
}
