import TVModel
import Testing
import Wire

@testable import Bridge

/// `hold_ms` and `search`, and the app icon cache's bounds.
@Suite("Command parser: held keys and search; app icon cache")
struct CommandParserExtrasTests {
    func parse(_ json: String, property: String? = nil) throws(CommandParseError) -> [TVCommand] {
        try CommandParser.parse(property: property, payload: Array(json.utf8), controls: CommandParserTests.controls)
            .commands
    }

    func refusal(_ json: String, property: String? = nil) -> String? {
        do {
            _ = try parse(json, property: property)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("a held key: hold_ms within 1…10000, never with repeat, never without a key")
    func heldKeys() throws {
        #expect(try parse(#"{"key":"Right","hold_ms":800}"#) == [.holdKey(.vendor("Right"), milliseconds: 800)])
        #expect(try parse(#"{"key":"right","hold_ms":1}"#) == [.holdKey(.shared(.right), milliseconds: 1)])
        #expect(try parse(#"{"key":"Right","hold_ms":10000}"#) == [.holdKey(.vendor("Right"), milliseconds: 10_000)])
        #expect(
            refusal(#"{"key":"Right","hold_ms":0}"#)?.hasPrefix("hold_ms: expected a whole number from 1 to 10000")
                == true)
        #expect(refusal(#"{"key":"Right","hold_ms":10001}"#) != nil)
        #expect(refusal(#"{"key":"Right","hold_ms":"800"}"#) != nil)
        #expect(refusal(#"{"key":"Right","hold_ms":1.5}"#) != nil)
        #expect(refusal(#"{"key":"Right","hold_ms":800,"repeat":2}"#)?.contains("cannot be combined") == true)
        #expect(refusal(#"{"hold_ms":800}"#) == "hold_ms needs a key")
    }

    @Test("search: a keyword (set/search or JSON), or an object with type, provider and launch")
    func search() throws {
        #expect(try parse("harry potter", property: "search") == [.search(SearchRequest(keyword: "harry potter"))])
        #expect(try parse(#"{"search":"harry potter"}"#) == [.search(SearchRequest(keyword: "harry potter"))])
        let full = try parse(#"{"search":{"keyword":"x","type":"movie","provider":"Netflix","launch":true}}"#)
        #expect(full == [.search(SearchRequest(keyword: "x", type: "movie", provider: "Netflix", launch: true))])
        let limit = String(repeating: "é", count: TVCommand.maxTextLength)
        #expect(try parse(limit, property: "search") == [.search(SearchRequest(keyword: limit))])
    }

    @Test("search refusals: empty, too long, control characters, unknown field, wrong types")
    func searchRefused() {
        let tooLong = String(repeating: "a", count: TVCommand.maxTextLength + 1)
        for (payload, property) in [
            ("", "search"), (tooLong, "search"), ("a\nb", "search"),
        ] {
            #expect(refusal(payload, property: property) != nil, "\(payload.prefix(20))")
        }
        for payload in [
            #"{"search":""}"#, #"{"search":5}"#, #"{"search":{"type":"movie"}}"#,
            #"{"search":{"keyword":"x","launch":"yes"}}"#,
            #"{"search":{"keyword":"x","provider":""}}"#, #"{"search":{"keyword":"x","color":"red"}}"#,
            #"{"search":{"keyword":"x","provider":7}}"#,
        ] {
            #expect(refusal(payload) != nil, "\(payload)")
        }
    }

    @Test("the app icon cache keeps at most maxEntries, dropping the least recently used, and remembers 'no icon'")
    func iconCache() {
        var cache = AppIconCache()
        let icon = AppIcon(bytes: [1], contentType: "image/png")
        for index in 0..<AppIconCache.maxEntries { cache.store(icon, for: "\(index)") }
        _ = cache.lookup("0")  // used: kept
        cache.store(nil, for: "input")
        #expect(cache.count == AppIconCache.maxEntries)
        let first = cache.lookup("0")
        #expect(first == .some(icon))
        let evicted = cache.lookup("1")
        #expect(evicted == nil)
        let none = cache.lookup("input")
        #expect(none == .some(nil))
    }
}
