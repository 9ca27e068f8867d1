import Drivers
import Foundation
import Harness
import MQTTInterface
import TVModel
import TVSimulators
import TestSupport
import Testing
import Wire

@testable import Bridge

/// Issue 17 item 3: `bridge/request/tv/add` and the bridge device's "TV to add" text and
/// "Add TV" button, end to end (MQTT → bridge → simulated Roku), and the state file after.
@Suite("Adding a TV by request")
struct AddTVRequestTests {
    /// A bridge that may add the simulated TVs: on loopback (`add_tv.allow_loopback`), at the
    /// simulators' own ports (`add_tv.ports`).
    func startBridge(_ fixture: BridgeFixture, ports: [UInt16] = []) async throws {
        let configuration = fixture.configuration {
            $0.discovery.searchInterval = 0
            $0.addTV.allowLoopback = true
            $0.addTV.ports = ports
        }
        try await fixture.startBridge(
            configuration,
            factory: VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled))
    }

    func request(_ fixture: BridgeFixture, _ action: String, _ payload: String) async throws
        -> JSONValue
    {
        let mark = await fixture.log.count
        try await fixture.publish("tv2mqtt/bridge/request/\(action)", payload)
        let response = await fixture.expectMessage("tv2mqtt/bridge/response/\(action)", after: mark)
        return try JSONParser.parse(#require(response).payload)
    }

    @Test("tv/add probes the address, adds the TV under the id and name given, and persists it")
    func addByRequest() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            try await startBridge(fixture, ports: [tv.port])
            let answer = try await request(
                fixture, "tv/add",
                #"{"host":"127.0.0.2","kind":"roku","port":\#(tv.port),"id":"den","name":"Den TV","transaction":7}"#)
            #expect(answer["status"] == "ok", "\(answer)")
            #expect(answer["transaction"] == 7)
            #expect(answer["data"]?["id"] == "den")
            #expect(answer["data"]?["added"] == true)
            await fixture.expectMessage("tv2mqtt/den/availability") { $0.text == "online" }
            let config = await fixture.expectMessage("homeassistant/device/den/config")
            #expect(try JSONParser.parse(#require(config).payload)["device"]?["name"] == "Den TV")
            await fixture.expectEvent("tv_discovered") { $0["tv"] == "den" }
            let saved = await waitUntil(timeout: .seconds(30)) {
                (try? String(contentsOfFile: fixture.stateDirectory.path + "/state.json", encoding: .utf8))?
                    .contains("\"den\"") == true
            }
            #expect(saved, "the state file names the added TV")

            // Asked again: known already, not added twice.
            let again = try await request(fixture, "tv/add", #"{"host":"127.0.0.2","port":\#(tv.port)}"#)
            #expect(again["status"] == "ok")
            #expect(again["data"]?["added"] == false)
            #expect(again["data"]?["id"] == "den")
        }
    }

    @Test("the TV to add text and the Add TV button: the text remembers roku:HOST:PORT, the button adds it")
    func addFromTheUI() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.3")
            try await startBridge(fixture, ports: [tv.port])
            let bridge = "tv2mqtt_bridge_tv2mqtt"
            let config = await fixture.expectMessage("homeassistant/device/\(bridge)/config")
            let components = try JSONParser.parse(#require(config).payload)["components"]
            let text = try #require(components?["add_tv_host"])
            let button = try #require(components?["add_tv"])
            #expect(text["platform"] == "text")
            #expect(button["platform"] == "button")

            let pressedEarly = try await request(fixture, "tv/add", #require(button["payload_press"]?.stringValue))
            #expect(pressedEarly["status"] == "error")
            #expect(pressedEarly["error"]?.stringValue?.contains("TV to add") == true)

            let textTopic = try #require(text["command_topic"]?.stringValue)
            let mark = await fixture.log.count
            try await fixture.publish(textTopic, "roku:127.0.0.3:\(tv.port)")
            let stored = await fixture.expectMessage("tv2mqtt/bridge/response/tv/add_host", after: mark)
            #expect(try JSONParser.parse(#require(stored).payload)["status"] == "ok")

            let added = try await request(fixture, "tv/add", #require(button["payload_press"]?.stringValue))
            #expect(added["status"] == "ok", "\(added)")
            let id = SimulatedRokus.id(tv)
            #expect(added["data"]?["id"] == .string(id))
            await fixture.expectMessage("tv2mqtt/\(id)/availability") { $0.text == "online" }
        }
    }

    @Test("tv/add refuses an unknown kind, a name for an address, a dead address and the id bridge, clearly")
    func refusals() async throws {
        try await withRokus { fixture, _ in
            try await startBridge(fixture)
            let kind = try await request(fixture, "tv/add", #"{"host":"127.0.0.4","kind":"sony"}"#)
            #expect(kind["status"] == "error")
            #expect(kind["error"]?.stringValue?.contains("unknown kind 'sony' (known: auto, roku, samsung") == true)
            let name = try await request(fixture, "tv/add", #"{"host":"tv.local"}"#)
            #expect(name["error"]?.stringValue?.contains("is not an IP address") == true)
            let dead = try await request(fixture, "tv/add", "roku:127.0.0.4")
            #expect(dead["error"] == "no TV answered at 127.0.0.4 (nothing accepted the connection)", "\(dead)")
            let id = try await request(fixture, "tv/add", #"{"host":"127.0.0.4","id":"bridge"}"#)
            #expect(id["error"]?.stringValue?.contains("not 'bridge'") == true)
        }
    }

    @Test(
        "a name with a control character is refused: C0, DEL, C1 and the Unicode line separators",
        arguments: ["a\u{7}b", "Den\u{7F}", "Den\u{85}TV", "Den\u{9F}", "Den\u{2028}TV", "Den\u{2029}"])
    func nameWithControlCharacter(_ name: String) {
        // Found by the add-tv fuzz target (a fresh-clone CI run): "ZZZ…%[\u{7F}" was accepted.
        let request: [String: JSONValue] = ["host": .string("127.0.0.20"), "name": .string(name)]
        let refusal = #expect(throws: BridgeService.RequestError.self) {
            try AddTVRequest.parse(request, plain: nil, draft: nil, vendors: .shipped)
        }
        #expect(refusal?.message == "\"name\" must be 1 to 128 printable characters")
    }

    @Test("a retained tv/add left on the broker is refused at start, and the TV there is not added")
    func retainedAdd() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.5")
            try await fixture.publish(
                "tv2mqtt/bridge/request/tv/add", #"{"host":"127.0.0.5","port":\#(tv.port)}"#, retain: true)
            try await startBridge(fixture, ports: [tv.port])
            let response = await fixture.expectMessage("tv2mqtt/bridge/response/tv/add")
            let answer = try JSONParser.parse(#require(response).payload)
            #expect(answer["error"]?.stringValue?.hasPrefix("ignored a retained request") == true, "\(answer)")
            try await Task.sleep(for: .seconds(1))
            let availability = await fixture.log.all("tv2mqtt/\(SimulatedRokus.id(tv))/availability")
            #expect(availability.isEmpty)
            try await fixture.publish("tv2mqtt/bridge/request/tv/add", "", retain: true)  // clean up the broker
        }
    }
}
