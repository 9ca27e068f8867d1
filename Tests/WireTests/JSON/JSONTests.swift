import TestSupport
import Testing

@testable import Wire

@Suite("JSON", .cpuBound)
struct JSONTests {
    @Test("objects serialise with sorted keys and compact separators")
    func sortedKeys() {
        let value: JSONValue = ["power": "ON", "app": "Netflix", "volume": 18, "muted": false, "input": nil]
        #expect(value.serialized() == #"{"app":"Netflix","input":null,"muted":false,"power":"ON","volume":18}"#)
    }

    @Test("numbers: integers stay exact, whole doubles lose their .0, fractions round-trip")
    func numbers() throws {
        #expect(try JSONParser.parse("123456789") == .integer(123_456_789))
        #expect(try JSONParser.parse("9007199254740993") == .integer(9_007_199_254_740_993))
        #expect(try JSONParser.parse("-0.5e1") == .number(-5))
        #expect(JSONValue.number(5400.0).serialized() == "5400")
        #expect(JSONValue.number(73.3).serialized() == "73.3")
        #expect(JSONValue.number(.nan).serialized() == "null")
    }

    @Test("strings: escapes, surrogate pairs and UTF-8 decode; control characters are escaped on output")
    func strings() throws {
        #expect(try JSONParser.parse(#""a\"b\\c\/d\n\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\né😀"))
        #expect(try JSONParser.parse("\"Hisense•Roku TV\"") == .string("Hisense•Roku TV"))
        #expect(JSONValue.string("line\nnul\u{0}tab\t").serialized() == #""line\nnul\u0000tab\t""#)
    }

    @Test("serialised text parses back to the same value")
    func roundTrip() throws {
        let value: JSONValue = [
            "a": [1, 2.5, "x", nil, true, ["nested": ["deep": "€"]]],
            "b": "quote\" and backslash\\",
        ]
        #expect(try JSONParser.parse(value.serialized()) == value)
    }

    @Test(
        "malformed documents are refused with a reason",
        arguments: [
            "", " ", "{", "{\"a\":}", "{\"a\" 1}", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "+1", "1e", "NaN",
            "Infinity", "tru", "nul", "\"unterminated", "\"bad \\x escape\"", "\"\\ud800\"", "\"\\udc00\"",
            "\"\\ud800\\u0041\"", "\"tab\there\"", "[1] [2]", "{\"a\":1,\"a\":2}", "// comment\n1", "'single'",
            "1e999",
        ])
    func malformed(_ text: String) {
        #expect(throws: WireError.self) { try JSONParser.parse(text) }
    }

    /// Found by Tests/Fuzz (command): the name went into the message raw, so CR/LF in a JSON key
    /// split the log line and the published error.
    @Test("a duplicate member is named with its control characters escaped")
    func duplicateMemberEscaped() {
        let text = #"{"kp":1,"=ta%2Fb\r\n00kp":2,"=ta%2Fb\r\n00kp":3}"#
        var reason = ""
        do {
            _ = try JSONParser.parse(text)
        } catch {
            reason = error.reason
        }
        #expect(reason == #"duplicate member '=ta%2Fb\u000d\u000a00kp' at byte 47"#)
        #expect(JSONParser.quoted("\u{85}\u{2028}\u{7F}é") == #"'\u0085\u2028\u007fé'"#)
        #expect(JSONParser.quoted(String(repeating: "x", count: 65)) == "'" + String(repeating: "x", count: 64) + "…'")
    }

    @Test("invalid UTF-8 inside a string is refused")
    func invalidUTF8() {
        #expect(throws: WireError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: WireError.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
    }

    @Test("deep nesting and oversize input hit the limits")
    func limits() {
        let deep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
        #expect(throws: WireError.tooLarge("JSON", "nesting deeper than 32")) { try JSONParser.parse(deep) }
        let fine = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        #expect((try? JSONParser.parse(fine)) != nil)
        let big = "\"" + String(repeating: "x", count: 100) + "\""
        #expect(throws: WireError.self) { try JSONParser.parse(big, limits: JSONLimits(maxDepth: 4, maxBytes: 64)) }
    }

    @Test("every prefix of a document is either refused or parses; nothing traps")
    func everyPrefix() throws {
        let text = #"{"event":"ms.channel.connect","data":{"clients":[{"attributes":{"token":"1234"}}],"id":1.5e2}}"#
        let bytes = Array(text.utf8)
        for end in 0..<bytes.count {
            #expect(throws: WireError.self) { try JSONParser.parse(bytes[0..<end]) }
        }
        #expect(try JSONParser.parse(bytes)["data"]?["id"] == .number(150))
    }

    @Test("the Samsung fixtures parse, token as a number")
    func samsungFixtures() throws {
        let connect = try JSONParser.parse(try TestFixtures.bytes("samsung/event_ms_channel_connect.json"))
        #expect(connect["event"] == "ms.channel.connect")
        #expect(connect["data"]?["token"]?.intValue == 123_456_789)
        let apps = try JSONParser.parse(try TestFixtures.bytes("samsung/event_ed_installedApp_get.json"))
        let appNames = apps["data"]?["data"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(appNames == ["YouTube", "Deezer"])
    }
}
