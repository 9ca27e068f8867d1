import TestSupport
import Testing
import Wire

/// `JSONValueEncoder` and `JSONValueDecoder`: a `Codable` type's own member names, no
/// Foundation; absence reads as empty, a wrong type is an error naming the member.
@Suite("JSON values through Codable", .cpuBound)
struct JSONCodableTests {
    struct Inner: Codable, Equatable {
        var key: String
        var icon: String?
    }

    enum Mode: String, Codable { case on, off }

    struct Outer: Codable, Equatable {
        var flag: Bool
        var count: Int
        var ratio: Double
        var names: [String]
        var inners: [Inner]
        var mode: Mode
        var note: String?
        var byName: [String: Int]
    }

    static let sample = Outer(
        flag: true, count: 7, ratio: 0.5, names: ["a", "b"], inners: [Inner(key: "k", icon: nil)], mode: .off,
        note: nil, byName: ["x": 1])

    @Test("the members are the property names; nil optionals are left out; it reads back the same")
    func roundTrip() throws {
        let json = try JSONValueEncoder().encode(Self.sample)
        #expect(
            json == [
                "flag": true, "count": 7, "ratio": 0.5, "names": ["a", "b"], "inners": [["key": "k"]], "mode": "off",
                "byName": ["x": 1],
            ])
        #expect(try JSONValueDecoder().decode(Outer.self, from: json) == Self.sample)
    }

    @Test("a member a document lacks reads as empty; an optional one as nil")
    func absence() throws {
        struct Later: Codable, Equatable {
            var flag: Bool
            var names: [String]
            var text: String
            var count: Int
            var note: String?
        }
        let read = try JSONValueDecoder().decode(Later.self, from: ["flag": true, "note": .null])
        #expect(read == Later(flag: true, names: [], text: "", count: 0, note: nil))
    }

    @Test("a member of the wrong type is an error that names it")
    func wrongType() {
        var reason = ""
        do {
            _ = try JSONValueDecoder().decode(Outer.self, from: ["flag": true, "names": ["a", 5]])
        } catch {
            reason = JSONValueDecoder.reason(error)
        }
        #expect(reason == "names.1: expected a string, got number")
    }
}
