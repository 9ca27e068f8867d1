import Drivers
import TVModel
import Testing

/// What a TV says about itself is bounded before the bridge keeps or publishes it.
@Suite("TV description limits")
struct TVDescriptionLimitTests {
    static func description(name: String, apps: [TVApp], inputs: [String]) -> TVDescription {
        TVDescription(
            identity: TVIdentity(
                id: TVID("roku_limits")!, kind: .roku, name: name, manufacturer: "Roku\u{0}",
                model: String(repeating: "m", count: 1000), host: "192.0.2.1", port: 8060),
            capabilities: TVCapabilities(inputs: inputs, apps: apps.map(\.name)), apps: apps)
    }

    @Test("names lose control characters and are cut to 128; app lists to 500, inputs to 64")
    func bounded() {
        let apps = (0..<2000).map { TVApp(id: "\($0)", name: "App\u{2028}\($0)" + String(repeating: "a", count: 200)) }
        let inputs = (0..<100).map { "HDMI\u{7}\($0)" }
        let bounded = Self.description(name: "Den\r\nTV", apps: apps, inputs: inputs).bounded
        #expect(bounded.identity.name == "DenTV")
        #expect(bounded.identity.manufacturer == "Roku")
        #expect(bounded.identity.model?.count == TVDescription.maxNameLength)
        #expect(bounded.apps.count == TVDescription.maxApps)
        #expect(bounded.capabilities.apps.count == TVDescription.maxApps)
        #expect(bounded.apps[0].name == "App0" + String(repeating: "a", count: 124))
        #expect(bounded.capabilities.apps[0] == bounded.apps[0].name)
        #expect(bounded.capabilities.inputs.count == TVDescription.maxInputs)
        #expect(bounded.capabilities.inputs[3] == "HDMI3")
    }

    @Test("an app whose id is longer than a name is left out, not cut; an empty name becomes the id")
    func longIDAndEmptyName() {
        let apps = [TVApp(id: String(repeating: "9", count: 129), name: "Long"), TVApp(id: "12", name: "Netflix")]
        let bounded = Self.description(name: "\u{7}\u{7}", apps: apps, inputs: []).bounded
        #expect(bounded.apps == [TVApp(id: "12", name: "Netflix")])
        #expect(bounded.identity.name == "roku_limits")
    }
}
