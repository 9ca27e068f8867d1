import MQTTInterface
import TVModel
import Testing
import Wire

/// Issue 13, item 12: no vendor string longer than Home Assistant accepts as a state (255
/// characters, counted in code points) is published.
@Suite("State document limits")
struct StateDocumentLimitTests {
    @Test("vendor strings are cut to 255 code points on a character boundary; shorter ones are kept")
    func capped() throws {
        let limit = StateDocument.maxStringLength
        // 254 letters, then a two-scalar emoji (thumbs up, skin tone) that would end at 256.
        let app = String(repeating: "a", count: limit - 1) + "👍🏽" + "tail"
        // "é" written as e + combining accent: two scalars per character.
        let input = String(repeating: "e\u{301}", count: 200)
        let snapshot = TVSnapshot(
            reachable: true, power: true, powerMode: String(repeating: "P", count: 1000), app: app,
            appID: String(repeating: "9", count: 300), input: input, controlPath: ControlPath(rawValue: "ecp"))
        let json = StateDocument.json(snapshot, host: "192.0.2.5", reportsInput: true, lastSeen: nil)
        let published = try JSONParser.parse(json.serializedBytes())
        #expect(published["app"]?.stringValue == String(repeating: "a", count: limit - 1))
        #expect(published["power_mode"]?.stringValue == String(repeating: "P", count: limit))
        #expect(published["app_id"]?.stringValue == String(repeating: "9", count: limit))
        #expect(published["input"]?.stringValue == String(repeating: "e\u{301}", count: 127))
        #expect(published["control"] == "ecp")
        for key in ["app", "power_mode", "app_id", "input"] {
            let count = published[key]?.stringValue?.unicodeScalars.count ?? 0
            #expect(count <= limit, "\(key): \(count) code points")
        }
        let short = TVSnapshot(reachable: true, app: "Netflix", appID: "12")
        let shortJSON = StateDocument.json(short, host: "192.0.2.5", reportsInput: false, lastSeen: nil)
        #expect(shortJSON["app"] == "Netflix" && shortJSON["app_id"] == "12")
    }
}
