import MQTTInterface
import TVModel
import Testing
import Wire

/// A driver's diagnostic readings (`TVSnapshot.declared`) reach the state document under
/// their own keys, capped like every vendor string, and never replace one of its own fields.
@Suite("State document: driver diagnostics")
struct StateDocumentDiagnosticsTests {
    @Test("a reading is published under its key, capped to 255; own fields and bad keys are not replaced or written")
    func diagnostics() throws {
        var snapshot = TVSnapshot(reachable: true, power: true, app: "Netflix")
        snapshot.declared = [
            "remote_setting": "limited", "long_reading": String(repeating: "x", count: 400),
            "app": "Shadowed", "power": "OFF", "Bad Key": "no", "": "empty",
        ]
        let json = StateDocument.json(snapshot, host: "192.0.2.5", reportsInput: false, lastSeen: nil)
        let published = try JSONParser.parse(json.serializedBytes())
        #expect(published["remote_setting"] == "limited")
        #expect(published["long_reading"]?.stringValue?.count == StateDocument.maxStringLength)
        #expect(published["app"] == "Netflix" && published["power"] == "ON")
        #expect(published["Bad Key"] == nil && published[""] == nil)
        let keys = published.objectValue.map { Set($0.keys) } ?? []
        #expect(keys == ["host", "power", "app", "remote_setting", "long_reading"])
    }
}
