import Drivers
import TVModel
import TVSimulators
import Testing
import Wire

@Suite("Samsung driver against the simulated TV", .serialized)
struct SamsungDriverSimulatorTests {
    @Test("probe describes the TV: id from the duid, Wi-Fi MAC, REST port, fixed inputs")
    func probe() async throws {
        try await withSamsungRig { rig in
            let identity = rig.description.identity
            #expect(identity.id == TVID(kind: .samsung, hardwareID: rig.simulator.duid))
            #expect(identity.kind == .samsung)
            #expect(identity.port == rig.simulator.portWS)
            let mac = MACAddress(rig.simulator.wifiMAC)?.description
            #expect(mac != nil && identity.macs == [mac!])
            #expect(rig.description.capabilities.inputs == SamsungDeviceInfo.inputs)
        }
    }

    @Test("poll when on: power, power mode, UPnP volume and mute; no prompt without a token")
    func pollOn() async throws {
        try await withSamsungRig(configuredApps: ["Netflix": "3201907018807", "Missing": "999"]) { rig in
            try await withDriver(rig.driver()) { driver, _ in
                let snapshot = await driver.poll(full: true)
                #expect(snapshot.reachable)
                #expect(snapshot.power == true)
                #expect(snapshot.powerMode == "on")
                #expect(snapshot.volume == 12)
                #expect(snapshot.muted == false)
                #expect(snapshot.controlPath == .websocket)
                #expect(snapshot.pairingRequired == false)
                // No token: the configured apps the REST API confirms, and no prompt on the TV.
                let apps = await driver.description.apps.map(\.name)
                #expect(apps == ["Netflix"])
                #expect(rig.entries("pairing").isEmpty)
            }
        }
    }

    @Test("poll with a token reads the installed app list over the remote channel")
    func pollApps() async throws {
        try await withSamsungRig { rig in
            let token = try await pairedToken(rig)
            // The list over a fresh TLS connection: 8 s, not 2, so a busy machine still gets it.
            try await withDriver(rig.driver(token: token.token, pin: token.pin, appList: .seconds(8))) { driver, _ in
                _ = await driver.poll(full: true)
                let apps = await driver.description.apps.map(\.name)
                #expect(apps.contains("YouTube") && apps.contains("Internet"))
                #expect(rig.entries("pairing").count == 1)
            }
        }
    }

    @Test("poll in standby is OFF without volume; off is unreachable")
    func pollStandbyAndOff() async throws {
        try await withSamsungRig { rig in
            try await withDriver(rig.driver()) { driver, _ in
                try rig.set(["power": "standby"])
                let standby = await driver.poll(full: false)
                #expect(standby.reachable)
                #expect(standby.power == false)
                #expect(standby.powerMode == "standby")
                #expect(standby.volume == nil)
                try rig.set(["power": "off"])
                let off = await driver.poll(full: false)
                #expect(off.reachable == false)
                #expect(off.power == false)
            }
        }
    }

    @Test("keys, text, app, input, volume and mute each reach the TV")
    func commands() async throws {
        try await withSamsungRig { rig in
            try await withDriver(rig.driver()) { driver, _ in
                try await driver.perform(.key(.shared(.home), repeat: 2))
                try await driver.perform(.key(.vendor("KEY_VOLUP"), repeat: 1))
                let keys = try await rig.keys(atLeast: 3)
                #expect(keys == ["KEY_HOME Click", "KEY_HOME Click", "KEY_VOLUP Click"])
                try await driver.perform(.text("héllo"))
                try await waitFor { !rig.entries("text").isEmpty }
                let texts = rig.entries("text").compactMap { $0["text"]?.stringValue }
                #expect(texts == ["héllo"])
                _ = await driver.poll(full: true)  // the installed list: the channel is open now
                try await driver.perform(.app("netflix"))
                try await waitFor { rig.entries("app_launch").count == 1 }
                let launch = rig.entries("app_launch").first
                #expect(launch?["app"]?.stringValue == "3201907018807")
                #expect(launch?["action_type"]?.stringValue == "DEEP_LINK")
                try await driver.perform(.input("HDMI"))
                let afterInput = try await rig.keys(atLeast: 4)
                #expect(afterInput.last == "KEY_HDMI Click")
                try await driver.perform(.volume(30))
                try await driver.perform(.mute(true))
                let volume = rig.entries("volume").first?["volume"]?.intValue
                #expect(volume == 30)
                let muted = rig.entries("mute").first?["muted"]?.boolValue
                #expect(muted == true)
                #expect(rig.simulator.state.volume == 30)
                #expect(rig.entries("pairing").count == 1)
            }
        }
    }

    @Test("a blocked key is refused before anything is sent")
    func blockedKey() async throws {
        try await withSamsungRig { rig in
            try await withDriver(rig.driver()) { driver, _ in
                let error = await driverError { () async throws(DriverError) in
                    try await driver.perform(.key(.vendor("KEY_FACTORY"), repeat: 1))
                }
                #expect(error?.kind == .rejected)
                #expect(rig.log.entries.isEmpty)
            }
        }
    }
}

/// Pairs a fresh driver with the simulator (accept) and returns what it persisted.
func pairedToken(_ rig: SamsungRig) async throws -> (token: String, pin: String) {
    var result: (String, String)?
    try await withDriver(rig.driver()) { driver, collector in
        try await driver.pair()
        await collector.settle { events in events.contains { if case .token = $0 { true } else { false } } }
        let token = try #require(collector.tokens.first)
        let pin = try #require(collector.pins.first)
        result = (token, pin)
    }
    return try #require(result)
}

/// Polls `condition` every 50 ms for up to 30 s (a hang bound).
func waitFor(_ condition: () -> Bool) async throws {
    for _ in 0..<600 {
        if condition() { return }
        try await Task.sleep(for: .milliseconds(50))
    }
}
