import Testing
import Wire

@testable import TVSimulators

/// How every simulated TV reads a `/sim/state` change: known fields only, typed readers whose
/// refusals name the field.
@Suite struct SimStateChangeTests {
    enum Power: String { case on, off }

    static func refusal(_ body: String, read: (SimStateChange) throws(SimulatorError) -> Void) -> String? {
        do {
            let change = try SimStateChange(
                try JSONParser.parse(Array(body.utf8)), known: ["power", "level", "on", "name"])
            try read(change)
            return nil
        } catch let error as SimulatorError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test func readsKnownFieldsOfEachType() throws {
        let body = #"{"power":"on","level":3,"on":true,"name":"den"}"#
        let change = try SimStateChange(
            try JSONParser.parse(Array(body.utf8)), known: ["power", "level", "on", "name"])
        let power: Power? = try change.choice("power", "on or off")
        #expect(power == .on)
        #expect(try change.int("level", 0...5) == 3)
        #expect(try change.bool("on") == true)
        #expect(try change.string("name") == "den")
        #expect(try change.string("absent") == nil)
    }

    @Test func refusalsNameTheField() {
        let notObject = Self.refusal("[1]") { _ in }
        #expect(notObject == "expected a JSON object, got array")
        let unknown = Self.refusal(#"{"colour":1}"#) { _ in }
        #expect(unknown == "unknown field 'colour'")
        let outOfRange = Self.refusal(#"{"level":9}"#) { change throws(SimulatorError) in
            _ = try change.int("level", 0...5)
        }
        #expect(outOfRange == "'level' must be an integer in 0...5")
        let notBool = Self.refusal(#"{"on":"yes"}"#) { change throws(SimulatorError) in _ = try change.bool("on") }
        #expect(notBool == "'on' must be true or false")
        let notString = Self.refusal(#"{"name":2}"#) { change throws(SimulatorError) in _ = try change.string("name") }
        #expect(notString == "'name' must be a string")
        let badPower = Self.refusal(#"{"power":"dim"}"#) { change throws(SimulatorError) in
            let _: Power? = try change.choice("power", "on or off")
        }
        #expect(badPower == "'power' must be on or off, not 'dim'")
    }
}
