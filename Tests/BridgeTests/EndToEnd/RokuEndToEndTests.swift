import Clients
import Configuration
import Drivers
import Harness
import Net
import Support
import TVModel
import TVSimulators
import TestSupport
import Testing
import Wire

@testable import Bridge

/// The first usable bridge: simulated Rokus on real sockets, a real mosquitto, the real driver.
/// Commands are sent the way Home Assistant sends them: to the command topic and with the
/// payload that the published discovery config names.
@Suite("Roku end to end")
struct RokuEndToEndTests {
    /// A bridge for `rokus`: SSDP to the loopback broadcast address on their port (or off),
    /// Wake-on-LAN to their port, polling every second.
    func startBridge(
        _ fixture: BridgeFixture, _ rokus: SimulatedRokus, ssdp: Bool = true, driverLogger: Logger = .disabled,
        adjust: (inout BridgeConfiguration) -> Void = { _ in }
    ) async throws {
        let configuration = fixture.configuration {
            $0.discovery.ssdp = ssdp
            $0.discovery.ssdpAddress = HostPort(host: "127.255.255.255", port: rokus.ssdpPort)
            $0.discovery.searchInterval = 0
            $0.wol.targets = [HostPort(host: "127.255.255.255", port: rokus.wolPort)]
            $0.wol.repeatCount = 1
            adjust(&$0)
        }
        try await fixture.startBridge(
            configuration,
            factory: VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: driverLogger))
    }

    @Test("three Rokus are found by SSDP on loopback: discovery, availability and state for each")
    func ssdpDiscovery() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            let stick = try await rokus.start("127.0.0.3", kind: .stick)
            let other = try await rokus.start("127.0.0.4")
            try await startBridge(fixture, rokus)
            let ids = [tv, stick, other].map(SimulatedRokus.id)
            #expect(Set(ids).count == 3)
            for id in ids {
                await fixture.expectMessage("tv2mqtt/\(id)/availability") { $0.text == "online" }
                await fixture.expectState(id) { $0["power"] != nil }
                _ = try await fixture.component("home", of: id)
            }
            // A stick has no power switch and no input select (at most the removal stub that
            // device-style discovery keeps: nothing but a platform); a TV has both.
            let latestStickConfig = await fixture.log.latest("homeassistant/device/\(ids[1])/config")
            let stickConfig = try JSONParser.parse(#require(latestStickConfig).payload)
            for key in ["power", "input"] {
                let component = stickConfig["components"]?[key]
                #expect(component == nil || component?.objectValue?.keys.sorted() == ["platform"], "\(key)")
            }
            _ = try await fixture.component("power", of: ids[0])
            _ = try await fixture.component("input", of: ids[0])
            let list = await fixture.expectMessage("tv2mqtt/bridge/tvs") { message in
                (try? JSONParser.parse(message.payload))?.arrayValue?.count == 3
            }
            let listed = try JSONParser.parse(#require(list).payload).arrayValue ?? []
            let listedIDs = Set(listed.compactMap { $0["id"]?.stringValue })
            #expect(listedIDs == Set(ids))
            let events = await fixture.log.all("tv2mqtt/bridge/event").compactMap { try? JSONParser.parse($0.payload) }
            let discovered = events.filter { $0["type"] == "tv_discovered" }.count
            #expect(discovered == 3)
        }
    }

    @Test("a configured TV is found without SSDP, under the configured id and name")
    func configuredTV() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            try await startBridge(fixture, rokus, ssdp: false) {
                var configured = BridgeConfiguration.ConfiguredTV(
                    host: "127.0.0.2", kind: .roku, name: "Den", id: TVID("den"), port: tv.port)
                configured.macs = ["02:aa:bb:cc:dd:ee"]
                $0.tvs = [configured]
            }
            await fixture.expectMessage("tv2mqtt/den/availability") { $0.text == "online" }
            let configMessage = await fixture.expectMessage("homeassistant/device/den/config")
            let config = try JSONParser.parse(#require(configMessage).payload)
            #expect(config["device"]?["name"] == "Den")
            let listMessage = await fixture.expectMessage("tv2mqtt/bridge/tvs") { $0.text.contains("den") }
            let list = try #require(listMessage)
            let macs = try JSONParser.parse(list.payload).arrayValue?.first?["macs"]?.arrayValue ?? []
            #expect(macs.contains("02:aa:bb:cc:dd:ee"))
            #expect(macs.contains(.string(tv.wifiMAC)))
        }
    }

    @Test("each entity's command reaches the simulated TV as the right ECP request")
    func entityCommands() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            try await startBridge(fixture, rokus)
            let id = SimulatedRokus.id(tv)
            await fixture.expectState(id) { $0["power"] == "ON" }

            for (button, key) in [("home", "Home"), ("volume_up", "VolumeUp"), ("select", "Select"), ("back", "Back")] {
                try await fixture.use(button, of: id)
                await expectReceived(rokus.log, "\(button)") { $0["kind"] == "keypress" && $0["key"] == .string(key) }
            }
            try await fixture.use("app", of: id, payload: "Netflix")
            await expectReceived(rokus.log) { $0["kind"] == "launch" && $0["app"] == "12" }
            await fixture.expectState(id) { $0["app"] == "Netflix" && $0["app_id"] == "12" }

            try await fixture.use("keyboard", of: id, payload: "hi €")
            let typed = await waitUntil(timeout: .seconds(30)) {
                rokus.entries("text", of: tv).compactMap { $0["text"]?.stringValue }.joined() == "hi €"
            }
            #expect(typed, "typed: \(rokus.entries("text", of: tv))")

            try await fixture.use("input", of: id, payload: "HDMI 1")
            await fixture.expectState(id) { $0["input"] == "HDMI 1" }

            try await fixture.use("power", of: id, payload: "OFF")
            await expectReceived(rokus.log) { $0["key"] == "PowerOff" }
            await fixture.expectState(id) { $0["power"] == "OFF" && $0["power_mode"] == "Ready" }

            // OFF again: nothing is sent (it never turns a TV on).
            let before = rokus.log.entries.count
            try await fixture.use("power", of: id, payload: "OFF")
            try await Task.sleep(for: .milliseconds(800))
            #expect(rokus.log.entries.count == before)

            let beforeOn = await fixture.log.count
            try await fixture.use("power", of: id, payload: "ON")
            await expectReceived(rokus.log) { $0["kind"] == "wol" && $0["mac"] == .string(tv.wifiMAC) }
            await expectReceived(rokus.log) { $0["key"] == "PowerOn" }
            await fixture.expectState(id, after: beforeOn) { $0["power"] == "ON" }
        }
    }

    @Test("a TV asleep and unreachable is woken by Wake-on-LAN to its cached MAC")
    func wakeFromOff() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            try await startBridge(fixture, rokus)
            let id = SimulatedRokus.id(tv)
            await fixture.expectState(id) { $0["power"] == "ON" }
            try tv.apply(["power": "off"])
            await fixture.expectMessage("tv2mqtt/\(id)/availability") { $0.text == "offline" }
            await fixture.expectState(id) { $0["power"] == "OFF" }
            let beforeOn = await fixture.log.count
            try await fixture.publish("tv2mqtt/\(id)/set/power", "ON")
            await expectReceived(rokus.log) { $0["kind"] == "wol" }
            await fixture.expectMessage("tv2mqtt/\(id)/availability", after: beforeOn) { $0.text == "online" }
            await fixture.expectState(id, after: beforeOn) { $0["power"] == "ON" }
        }
    }

    @Test("a change made on the TV reaches <base>/<tv>/state at the next poll, one poll interval on")
    func stateFollowsTheTV() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            let clock = ManualClock()
            try await clock.run {
                try await startBridge(fixture, rokus)
                let id = SimulatedRokus.id(tv)
                // The first poll is due as soon as the TV is found; the next ones 1 s (poll_interval) apart.
                #expect(await clock.waitForTimer(at: .zero))
                await clock.advance(to: .zero)
                await fixture.expectState(id) { $0["power"] == "ON" }
                #expect(await clock.waitForTimer(at: .seconds(1)))
                try tv.apply(["app": "837", "media_state": "play", "position_ms": 73313])
                await clock.advance(to: .seconds(1))
                let seen = await fixture.expectState(id) { document in
                    document["app"] == "YouTube" && document["media_state"] == "playing"
                }
                #expect((seen?["position"]?.doubleValue ?? 0) >= 73.3, "state: \(String(describing: seen))")
                #expect(await clock.waitForTimer(at: .seconds(2)))
                try tv.apply(["power": "standby"])
                await clock.advance(to: .seconds(2))
                await fixture.expectState(id) { $0["power"] == "OFF" && $0["power_mode"] == "Ready" }
            }
        }
    }

    @Test("availability goes offline when the TV stops answering and online when it returns")
    func availability() async throws {
        try await withRokus { fixture, rokus in
            // The standard ECP port on an address of its own, so that coming back on the same
            // port cannot collide with an ephemeral port another test's socket took meanwhile.
            let tv = try await rokus.start("127.0.0.32", port: 8060)
            let port = tv.port
            try await startBridge(fixture, rokus)
            let id = SimulatedRokus.id(tv)
            await fixture.expectMessage("tv2mqtt/\(id)/availability") { $0.text == "online" }
            await rokus.stop("127.0.0.32")
            await fixture.expectMessage("tv2mqtt/\(id)/availability") { $0.text == "offline" }
            let lost = await fixture.log.waitForEvent("tv2mqtt", type: "tv_lost")
            #expect(lost?["tv"]?.stringValue == id)
            let beforeReturn = await fixture.log.count
            try await rokus.start("127.0.0.32", port: port)
            await fixture.expectMessage("tv2mqtt/\(id)/availability", after: beforeReturn) { $0.text == "online" }
        }
    }

    @Test("bad commands produce command_failed and send nothing to the TV")
    func badCommands() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            let id = SimulatedRokus.id(tv)
            let base = "tv2mqtt/\(id)"
            // A retained command (left by a careless script) must not replay when the bridge subscribes.
            try await fixture.publish("\(base)/set/key", "home", retain: true)
            try await startBridge(fixture, rokus)
            await fixture.expectState(id) { $0["power"] == "ON" }
            let bad: [(String, [UInt8])] = [
                ("\(base)/set/key", Array("FactoryReset".utf8)),
                ("\(base)/set/key", Array("Home%2FPowerOff".utf8)),
                ("\(base)/set/app", Array("../launch/12".utf8)),
                ("\(base)/set", Array(#"{"launch":{"app":"12/../../keypress/PowerOff"}}"#.utf8)),
                ("\(base)/set/text", Array("line\r\nPOST /keypress/PowerOff".utf8)),
                ("\(base)/set/text", [0x68, 0xFF, 0xFE]),
                ("\(base)/set", Array(repeating: 0x20, count: 70_000)),
                ("\(base)/set/volume", Array("150".utf8)),
                ("tv2mqtt/no_such_tv/set/key", Array("home".utf8)),
            ]
            for (topic, payload) in bad {
                try await fixture.observer.publish(topic, payload, qos: .atLeastOnce, retain: false)
            }
            let allRefused = await waitUntil(timeout: .seconds(30)) {
                await fixture.log.all("tv2mqtt/bridge/event").filter { event in
                    (try? JSONParser.parse(event.payload))?["type"] == "command_failed"
                }.count >= bad.count + 1
            }
            #expect(allRefused, "one command_failed per bad command and one for the retained command")
            try await fixture.publish("\(base)/set/key", "", retain: true)  // clear the retained command
            try await Task.sleep(for: .milliseconds(500))
            let acted = rokus.log.entries.filter { $0["refused"] == nil && $0["kind"]?.stringValue != "wol" }
            #expect(acted.isEmpty, "the TV received \(acted)")
        }
    }

    @Test("ids and MACs survive a bridge restart while the TV is off; ON then wakes it with the remembered MAC")
    func persistence() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            try await startBridge(fixture, rokus)
            let id = SimulatedRokus.id(tv)
            await fixture.expectMessage("tv2mqtt/\(id)/availability") { $0.text == "online" }
            try await Task.sleep(for: .milliseconds(1500))  // the state file is written, debounced
            await fixture.stopBridge()
            try tv.apply(["power": "off"])  // unreachable, and silent to SSDP, until woken
            try await startBridge(fixture, rokus)
            // The list the restarted bridge publishes: the TV known from the state file, offline.
            let listMessage = await fixture.expectMessage("tv2mqtt/bridge/tvs") { message in
                let list = (try? JSONParser.parse(message.payload))?.arrayValue ?? []
                return list.contains { $0["id"] == .string(id) && $0["online"] == false }
            }
            let list = try JSONParser.parse(#require(listMessage).payload).arrayValue ?? []
            let entry = list.first { $0["id"] == .string(id) }
            #expect(entry?["online"] == false)
            let macs = entry?["macs"]?.arrayValue ?? []
            #expect(macs.contains(.string(tv.wifiMAC)) && macs.contains(.string(tv.ethernetMAC)))
            let wifiMAC = tv.wifiMAC
            let beforeOn = await fixture.log.count
            try await fixture.publish("tv2mqtt/\(id)/set/power", "ON")
            await expectReceived(rokus.log) { $0["kind"] == "wol" && $0["mac"] == .string(wifiMAC) }
            await fixture.expectMessage("tv2mqtt/\(id)/availability", after: beforeOn) { $0.text == "online" }
            await fixture.expectState(id, after: beforeOn) { $0["power"] == "ON" }
        }
    }

    @Test("Limited mode is reported once, in the state and as an event; commands fail with the reason")
    func limitedMode() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2", limited: true)
            try await startBridge(fixture, rokus)
            let id = SimulatedRokus.id(tv)
            await fixture.expectState(id) { $0["limited_mode"] == true }
            let event = try #require(await fixture.log.waitForEvent("tv2mqtt", type: "limited_mode"))
            #expect(event["message"]?.stringValue?.contains("Control by mobile apps") == true)
            try await fixture.publish("tv2mqtt/\(id)/set/key", "home")
            let failure = try #require(await fixture.log.waitForEvent("tv2mqtt", type: "command_failed"))
            #expect(failure["message"]?.stringValue?.contains("Limited mode") == true)
            // What still works keeps working: the app launch.
            try await fixture.publish("tv2mqtt/\(id)/set/app", "Netflix")
            await fixture.expectState(id) { $0["app"] == "Netflix" }
            try await Task.sleep(for: .milliseconds(500))
            let events = await fixture.log.all("tv2mqtt/bridge/event").filter {
                (try? JSONParser.parse($0.payload))?["type"] == "limited_mode"
            }
            #expect(events.count == 1)
        }
    }
}
