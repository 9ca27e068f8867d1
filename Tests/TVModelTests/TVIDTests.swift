import TVModel
import Testing

/// A TV id is the `<tv>` level of its topics: it must be one MQTT topic level that no other
/// TV's or the bridge's topics can be mistaken for.
@Suite("TV ids")
struct TVIDTests {
    @Test("only [a-z0-9_-], 1 to 64 bytes, is an id")
    func validity() {
        for good in ["living_room", "roku_x01900sgn8uy", "a", "0-9", String(repeating: "z", count: 64)] {
            #expect(TVID(good) != nil, "\(good)")
        }
        let bad = [
            "", "Living", "a b", "a/b", "+", "#", "é", "a\u{0}", String(repeating: "z", count: 65), "tv.1",
        ]
        for text in bad {
            #expect(TVID(text) == nil, "\(text.debugDescription)")
        }
    }

    @Test("an id from a hardware identifier: lowercased, other characters dropped, uuid prefix gone")
    func fromHardware() {
        let roku = TVKind(rawValue: "roku")
        let samsung = TVKind(rawValue: "samsung")
        #expect(TVID(kind: roku, hardwareID: "X01900SGN8UY")?.rawValue == "roku_x01900sgn8uy")
        let fromUDN = TVID(kind: samsung, hardwareID: "uuid:0AB1-C2/D3")
        #expect(fromUDN?.rawValue == "samsung_0ab1-c2d3")
        #expect(TVID(kind: roku, hardwareID: "::!!") == nil, "nothing usable is left")
        let long = TVID(kind: samsung, hardwareID: String(repeating: "f", count: 200))
        #expect(long?.rawValue.utf8.count == 64, "cut to the 64-byte limit with the kind in front")
    }

    @Test("ids decode only when valid, and order by their text")
    func codingAndOrder() throws {
        let id = try #require(TVID("b_tv"))
        #expect(id.description == "b_tv")
        #expect(try #require(TVID("a_tv")) < id)
    }
}
