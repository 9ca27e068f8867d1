import Clients
import Configuration
import Drivers
import Harness
import TVModel
import Testing
import Wire

@testable import Bridge

/// The bridge's own behaviour over a real mosquitto, with recording drivers behind it.
@Suite("Bridge service")
struct BridgeServiceTests {
    static let tv = TVDescription.sample()

    func start(
        _ fixture: BridgeFixture, _ factory: RecordingFactory, adjust: (inout BridgeConfiguration) -> Void = { _ in }
    )
        async throws
    {
        let configuration = fixture.configuration {
            $0.tvs = [BridgeConfiguration.ConfiguredTV(host: Self.tv.identity.host, kind: .roku)]
            adjust(&$0)
        }
        try await fixture.startBridge(configuration, factory: factory)
        _ = await fixture.log.waitFor("tv2mqtt/roku_sample1/availability") { $0.text == "online" }
    }

    @Test("online, info, TV list, discovery, availability and state are published; offline on shutdown")
    func lifecycle() async throws {
        try await withBridgeFixture { fixture in
            try await start(fixture, RecordingFactory([Self.tv]))
            let log = fixture.log
            #expect(await log.latest("tv2mqtt/bridge/state")?.text == "online")
            let info = try JSONParser.parse(#require(await log.waitFor("tv2mqtt/bridge/info")).payload)
            #expect(info["version"] == .string(TV2MQTTVersion.current))
            #expect(info["config"]?["mqtt"]?["server"]?.stringValue?.hasPrefix("mqtt://127.0.0.1:") == true)
            let tvsMessage = await log.waitFor("tv2mqtt/bridge/tvs") { $0.text.contains("roku_sample1") }
            let tvs = try JSONParser.parse(#require(tvsMessage).payload)
            #expect(tvs.arrayValue?.first?["macs"] == ["02:00:7f:00:00:02", "02:01:7f:00:00:02"])
            let config = try #require(await log.waitFor("homeassistant/device/roku_sample1/config"))
            #expect(config.retain || config.qos == .atLeastOnce)
            #expect(try JSONParser.parse(config.payload)["device"]?["name"] == "Living Room")
            let state = try #require(await log.waitFor("tv2mqtt/roku_sample1/state"))
            #expect(try JSONParser.parse(state.payload)["power"] == "ON")
            await fixture.stopBridge()
            #expect(await log.latest("tv2mqtt/bridge/state")?.text == "offline")
        }
    }

    @Test("a valid command reaches the driver; invalid ones produce command_failed and reach nothing")
    func commandsAndRefusals() async throws {
        try await withBridgeFixture { fixture in
            let factory = RecordingFactory([Self.tv])
            try await start(fixture, factory)
            let driver = try #require(factory.driver(TVID("roku_sample1")!))
            try await fixture.publish("tv2mqtt/roku_sample1/set", #"{"key":"VolumeUp","repeat":3}"#)
            try await fixture.publish("tv2mqtt/roku_sample1/set/key", "home")
            let bothPerformed = await waitUntil(timeout: .seconds(30)) { driver.performed.count == 2 }
            #expect(bothPerformed)
            #expect(driver.performed == [.key(.vendor("VolumeUp"), repeat: 3), .key(.shared(.home), repeat: 1)])

            let bad: [(String, String)] = [
                ("tv2mqtt/roku_sample1/set/key", "KEY_FACTORY"), ("tv2mqtt/roku_sample1/set/key", "../launch/12"),
                ("tv2mqtt/roku_sample1/set/volume", "25"), ("tv2mqtt/roku_sample1/set", "{not json"),
                ("tv2mqtt/nosuchtv/set/key", "home"), ("tv2mqtt/roku_sample1/set/text", "a\nb"),
            ]
            for (topic, payload) in bad { try await fixture.publish(topic, payload) }
            try await fixture.observer.publish(
                "tv2mqtt/roku_sample1/set/text", [UInt8](repeating: 0x61, count: 70_000), qos: .atLeastOnce)
            try await fixture.observer.publish("tv2mqtt/roku_sample1/set/text", [0xC3, 0x28], qos: .atLeastOnce)
            let allRefused = await waitUntil(timeout: .seconds(30)) {
                await fixture.log.all("tv2mqtt/bridge/event").filter { $0.text.contains("command_failed") }.count
                    >= bad.count + 2
            }
            #expect(allRefused)
            let events = await fixture.log.all("tv2mqtt/bridge/event").compactMap { try? JSONParser.parse($0.payload) }
            let failures = events.filter { $0["type"] == "command_failed" }.compactMap { $0["message"]?.stringValue }
            let unknownKey = failures.contains { $0.contains("unknown key 'KEY_FACTORY'") }
            #expect(unknownKey)
            let notAKeyName = failures.contains { $0.contains("'../launch/12' is not a key name") }
            #expect(notAKeyName)
            let noVolume = failures.contains { $0.contains("does not report its volume") }
            #expect(noVolume)
            let invalidJSON = failures.contains { $0.contains("not valid JSON") }
            #expect(invalidJSON)
            let unknownTV = failures.contains { $0.contains("unknown TV 'nosuchtv'") }
            #expect(unknownTV)
            let controlCharacters = failures.contains { $0.contains("control characters") }
            #expect(controlCharacters)
            let tooLarge = failures.contains { $0.contains("exceeds the 64 KiB limit") }
            #expect(tooLarge)
            let invalidUTF8 = failures.contains { $0.contains("not valid UTF-8") }
            #expect(invalidUTF8)
            #expect(driver.performed.count == 2, "nothing more reached the TV")
        }
    }

    @Test("a retained command is ignored with command_failed; a transaction gets a response")
    func retainedAndTransactions() async throws {
        try await withBridgeFixture { fixture in
            try await fixture.publish("tv2mqtt/roku_sample1/set/key", "home", retain: true)
            let factory = RecordingFactory([Self.tv])
            try await start(fixture, factory)
            let event = await fixture.log.waitForEvent("tv2mqtt", type: "command_failed")
            #expect(event?["message"]?.stringValue?.contains("retained command") == true)
            try await fixture.publish("tv2mqtt/roku_sample1/set", #"{"app":"Netflix","transaction":"t-1"}"#)
            let ok = await fixture.log.waitFor("tv2mqtt/roku_sample1/response")
            let okResponse = try ok.map { try JSONParser.parse($0.payload) }
            #expect(okResponse == ["status": "ok", "data": [:], "transaction": "t-1"])
            let driver = try #require(factory.driver(TVID("roku_sample1")!))
            driver.failNext(DriverError(.timeout, "the TV did not answer"))
            try await fixture.publish("tv2mqtt/roku_sample1/set", #"{"key":"home","transaction":7}"#)
            let failed = await fixture.log.waitFor("tv2mqtt/roku_sample1/response") { $0.text.contains("error") }
            let failedError = try failed.map { try JSONParser.parse($0.payload)["error"] }
            #expect(failedError == "the TV did not answer")
            #expect(driver.performed == [.app("Netflix")])
            try await fixture.publish("tv2mqtt/roku_sample1/set/key", "", retain: true)  // clean up the broker
        }
    }

    @Test("bridge requests: health_check, tv/rename, log_level, tv/remove and an unknown action")
    func requests() async throws {
        try await withBridgeFixture { fixture in
            try await start(fixture, RecordingFactory([Self.tv]))
            try await fixture.publish("tv2mqtt/bridge/request/health_check", #"{"transaction":1}"#)
            let health = try await #require(fixture.log.waitFor("tv2mqtt/bridge/response/health_check"))
            let healthJSON = try JSONParser.parse(health.payload)
            #expect(healthJSON["status"] == "ok" && healthJSON["data"]?["healthy"] == true)
            #expect(healthJSON["transaction"] == 1)

            try await fixture.publish("tv2mqtt/bridge/request/tv/rename", #"{"id":"roku_sample1","name":"Den"}"#)
            let renamed = await fixture.log.waitFor("homeassistant/device/roku_sample1/config") {
                (try? JSONParser.parse($0.payload))?["device"]?["name"] == "Den"
            }
            #expect(renamed != nil)
            // DEL is no printable character either (the add-tv fuzz target found it let through).
            try await fixture.publish(
                "tv2mqtt/bridge/request/tv/rename", #"{"id":"roku_sample1","name":"Den\u007f"}"#)
            let refused = await fixture.log.waitFor("tv2mqtt/bridge/response/tv/rename") { $0.text.contains("error") }
            #expect(refused?.text.contains("1 to 128 printable characters") == true)

            try await fixture.publish("tv2mqtt/bridge/request/log_level", "debug")
            let debugInfo = await fixture.log.waitFor("tv2mqtt/bridge/info") {
                (try? JSONParser.parse($0.payload))?["log_level"] == "debug"
            }
            #expect(debugInfo != nil)

            try await fixture.publish("tv2mqtt/bridge/request/tv/remove", #"{"id":"roku_sample1"}"#)
            let configCleared = await fixture.log.waitFor("homeassistant/device/roku_sample1/config") {
                $0.payload.isEmpty
            }
            #expect(configCleared != nil)
            let stateCleared = await fixture.log.waitFor("tv2mqtt/roku_sample1/state") { $0.payload.isEmpty }
            #expect(stateCleared != nil)

            try await fixture.publish("tv2mqtt/bridge/request/frobnicate", "{}")
            let unknown = try await #require(fixture.log.waitFor("tv2mqtt/bridge/response/frobnicate"))
            #expect(try JSONParser.parse(unknown.payload)["error"]?.stringValue?.contains("unknown request") == true)
            try await fixture.publish("tv2mqtt/bridge/request/tv/remove", #"{"id":"nope"}"#)
            let missing = await fixture.log.waitFor("tv2mqtt/bridge/response/tv/remove") { $0.text.contains("error") }
            #expect(missing?.text.contains("unknown TV 'nope'") == true)
        }
    }

    @Test("pushed state is published at once; unchanged state is not republished")
    func pushedStateAndChangeOnly() async throws {
        try await withBridgeFixture { fixture in
            let factory = RecordingFactory([Self.tv])
            try await start(fixture, factory)
            let driver = try #require(factory.driver(TVID("roku_sample1")!))
            _ = await fixture.log.waitFor("tv2mqtt/roku_sample1/state")
            try await Task.sleep(for: .seconds(3))  // several polls of an unchanged TV
            #expect(await fixture.log.all("tv2mqtt/roku_sample1/state").count == 1)
            #expect(driver.polls >= 2)
            let playing = TVSnapshot(
                reachable: true, power: true, powerMode: "PowerOn", app: "Netflix", appID: "12", mediaState: .playing)
            driver.setSnapshot(playing)
            driver.push(.state(playing))
            let state = await fixture.log.waitFor("tv2mqtt/roku_sample1/state") { $0.text.contains("Netflix") }
            let mediaState = try state.map { try JSONParser.parse($0.payload)["media_state"] }
            #expect(mediaState == "playing")
        }
    }

    @Test("an unreachable TV goes offline with tv_lost, comes back online")
    func availability() async throws {
        try await withBridgeFixture { fixture in
            let factory = RecordingFactory([Self.tv])
            try await start(fixture, factory)
            let driver = try #require(factory.driver(TVID("roku_sample1")!))
            driver.setSnapshot(.unreachable)
            let offline = await fixture.log.waitFor("tv2mqtt/roku_sample1/availability") { $0.text == "offline" }
            #expect(offline != nil)
            #expect(await fixture.log.waitForEvent("tv2mqtt", type: "tv_lost") != nil)
            driver.setSnapshot(TVSnapshot(reachable: true, power: false, powerMode: "Ready"))
            let onlineAgain = await fixture.log.waitFor("tv2mqtt/roku_sample1/availability") {
                $0.text == "online" && !$0.retain
            }
            #expect(onlineAgain != nil)
        }
    }

    @Test("TVs, ids and MACs survive a restart; stale configs of unknown TVs are cleared at startup")
    func persistenceAndStaleConfigs() async throws {
        try await withBridgeFixture { fixture in
            let stale =
                #"{"device":{"identifiers":["tv2mqtt_roku_gone"]},"origin":{"name":"tv2mqtt"},"components":{"power":{"platform":"switch","unique_id":"tv2mqtt_roku_gone_power","availability":[{"topic":"tv2mqtt/bridge/state"}],"command_topic":"tv2mqtt/roku_gone/set/power"}}}"#
            try await fixture.publish("homeassistant/device/roku_gone/config", stale, retain: true)
            let foreign = #"{"device":{"identifiers":["zigbee_1"]},"origin":{"name":"zigbee2mqtt"},"components":{}}"#
            try await fixture.publish("homeassistant/device/zigbee_1/config", foreign, retain: true)
            try await start(fixture, RecordingFactory([Self.tv]))
            let staleCleared = await fixture.log.waitFor("homeassistant/device/roku_gone/config") {
                $0.payload.isEmpty
            }
            #expect(staleCleared != nil)
            await fixture.stopBridge()
            let foreignKept = await fixture.log.all("homeassistant/device/zigbee_1/config").allSatisfy {
                !$0.payload.isEmpty
            }
            #expect(foreignKept)

            // Restart knowing nothing by configuration: the TV comes back from the state file.
            try await fixture.startBridge(fixture.configuration(), factory: RecordingFactory([]))
            let tvs = await fixture.log.waitFor("tv2mqtt/bridge/tvs") { $0.text.contains("roku_sample1") && !$0.retain }
            let entry = try tvs.map { try JSONParser.parse($0.payload).arrayValue?.first }
            #expect(entry??["macs"] == ["02:00:7f:00:00:02", "02:01:7f:00:00:02"])
            #expect(entry??["name"] == "Living Room")
            try await fixture.publish("homeassistant/device/zigbee_1/config", "", retain: true)
        }
    }

    @Test("Home Assistant's birth message republishes discovery and state after a short random delay")
    func homeAssistantBirth() async throws {
        try await withBridgeFixture { fixture in
            try await start(fixture, RecordingFactory([Self.tv]))
            try await checkBirthRepublish(fixture)
        }
    }

    private func checkBirthRepublish(_ fixture: BridgeFixture) async throws {
        let log = fixture.log
        _ = await log.waitFor("homeassistant/device/roku_sample1/config")
        _ = await log.waitFor("tv2mqtt/roku_sample1/state")
        let configs = await log.all("homeassistant/device/roku_sample1/config").count
        let states = await log.all("tv2mqtt/roku_sample1/state").count
        try await fixture.publish("homeassistant/status", "online", qos: .atMostOnce)
        let republished = await waitUntil(timeout: .seconds(30)) {
            let configsNow = await log.all("homeassistant/device/roku_sample1/config").count
            let statesNow = await log.all("tv2mqtt/roku_sample1/state").count
            return configsNow > configs && statesNow > states
        }
        if !republished { await dump(fixture) }
        #expect(republished)
    }

    private func dump(_ fixture: BridgeFixture) async {
        for line in fixture.logs.lines.suffix(40) { print("LOG", line) }
        for message in await fixture.log.messages {
            print("MSG", message.topic, message.retain, String(message.text.prefix(60)))
        }
    }
}
