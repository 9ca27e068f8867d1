import Drivers
import Harness
import Net
import TVModel
import TVSimulators
import Testing
import Wire

@Suite("Roku driver against the simulated Roku", .serialized)
struct RokuDriverSimulatorTests {
    @Test("probe describes a Roku TV")
    func probeTV() async throws {
        try await withRokuRig { rig in
            let identity = rig.description.identity
            #expect(identity.id == TVID(kind: .roku, hardwareID: rig.simulator.serial))
            #expect(identity.name == rig.simulator.name)
            #expect(identity.kind == .roku)
            #expect(identity.serialNumber == rig.simulator.serial)
            #expect(identity.macs == [rig.simulator.wifiMAC, rig.simulator.ethernetMAC])
            #expect(identity.host == "127.0.0.2" && identity.port == rig.simulator.port)
            #expect(identity.modelID == "7820X")
            let capabilities = rig.description.capabilities
            #expect(capabilities.power && capabilities.volumeKeys && capabilities.channels)
            #expect(capabilities.inputs.starts(with: ["HDMI 1", "HDMI 2", "HDMI 3", "Live TV"]))
            #expect(capabilities.apps.contains("Netflix") && !capabilities.apps.contains("HDMI 1"))
            #expect(!capabilities.volumeLevel && !capabilities.muteState)
            #expect(rig.description.apps.contains(TVApp(id: "12", name: "Netflix")))
        }
    }

    @Test("probe describes a stick: no power, no inputs, no channels")
    func probeStick() async throws {
        try await withRokuRig(kind: .stick) { rig in
            let capabilities = rig.description.capabilities
            #expect(!capabilities.power && !capabilities.channels && capabilities.inputs.isEmpty)
            #expect(capabilities.keyboard && capabilities.mediaState)
            #expect(throws: CommandRejection.self) { _ = try rig.driver.plan(.power(.on)) }
            #expect(throws: CommandRejection.self) { _ = try rig.driver.plan(.key(.shared(.inputHDMI1), repeat: 1)) }
            #expect(rig.log.entries.isEmpty)
        }
    }

    @Test("poll: on at home, an app playing, an input, standby, off")
    func poll() async throws {
        try await withRokuRig { rig in
            var snapshot = await rig.driver.poll(full: true)
            #expect(snapshot.reachable && snapshot.power == true && snapshot.powerMode == "PowerOn")
            #expect(snapshot.app == "Roku" && snapshot.appID == nil)
            #expect(snapshot.mediaState == .idle)
            #expect(snapshot.limitedMode == false && snapshot.controlPath == .ecp)

            try rig.set(["app": "12"])
            snapshot = await rig.driver.poll(full: false)
            #expect(snapshot.app == "Netflix" && snapshot.appID == "12")
            #expect(snapshot.mediaState == .playing)
            #expect(snapshot.duration == 5400)
            #expect(snapshot.position != nil)
            #expect(snapshot.input == nil)

            try rig.set(["media_state": "pause"])
            #expect(await rig.driver.poll(full: false).mediaState == .paused)

            try rig.set(["app": "tvinput.hdmi1"])
            snapshot = await rig.driver.poll(full: false)
            #expect(snapshot.input == "HDMI 1" && snapshot.appID == "tvinput.hdmi1")
            #expect(snapshot.mediaState == nil)

            try rig.set(["power": "standby"])
            snapshot = await rig.driver.poll(full: false)
            #expect(snapshot.reachable && snapshot.power == false && snapshot.powerMode == "Ready")
            #expect(snapshot.app == nil && snapshot.mediaState == nil)

            try rig.set(["power": "off"])
            snapshot = await rig.driver.poll(full: false)
            #expect(!snapshot.reachable && snapshot.power == false)

            // The description keeps what was learned while the TV answered.
            let description = await rig.driver.description
            #expect(description.identity.macs == [rig.simulator.wifiMAC, rig.simulator.ethernetMAC])
            #expect(description.capabilities.inputs.contains("Live TV"))
        }
    }

    @Test("each command kind arrives as the right ECP request")
    func commands() async throws {
        try await withRokuRig { rig in
            _ = await rig.driver.poll(full: true)
            try await rig.driver.perform(.key(.shared(.home), repeat: 1))
            try await rig.driver.perform(.key(.shared(.volumeUp), repeat: 3))
            try await rig.driver.perform(.key(.vendor("backspace"), repeat: 1))
            try await rig.driver.perform(.key(.shared(.menu), repeat: 1))
            #expect(rig.keys == ["Home", "VolumeUp", "VolumeUp", "VolumeUp", "Backspace", "Info"])

            try await rig.driver.perform(.text("a €"))
            let typed = rig.entries("text")
            let typedKeys = typed.compactMap { $0["key"]?.stringValue }
            #expect(typedKeys == ["Lit_a", "Lit_%20", "Lit_%E2%82%AC"])
            let typedTexts = typed.compactMap { $0["text"]?.stringValue }
            #expect(typedTexts == ["a", " ", "€"])

            try await rig.driver.perform(.app("netflix"))
            try await rig.driver.perform(.launch(appID: "837", contentID: "dQw4w9WgXcQ & more", mediaType: "movie"))
            try await rig.driver.perform(.input("HDMI2"))
            let launches = rig.entries("launch")
            let launchedApps = launches.compactMap { $0["app"]?.stringValue }
            #expect(launchedApps == ["12", "837", "tvinput.hdmi2"])
            #expect(launches[1]["contentId"]?.stringValue == "dQw4w9WgXcQ & more")
            #expect(launches[1]["mediaType"]?.stringValue == "movie")
            #expect(rig.simulator.state.appID == "tvinput.hdmi2")
        }
    }

    @Test("a refused command sends nothing")
    func refusedSendsNothing() async throws {
        try await withRokuRig { rig in
            _ = await rig.driver.poll(full: true)
            let rejected: [TVCommand] = [
                .key(.vendor("Foo"), repeat: 1), .key(.shared(.stop), repeat: 1), .app("Nope"), .volume(10),
                .mute(true), .input("HDMI9"), .text("bad\nline"),
            ]
            for command in rejected {
                #expect(throws: CommandRejection.self) { _ = try rig.driver.plan(command) }
                let error = await #expect(throws: DriverError.self) { try await rig.driver.perform(command) }
                #expect(error?.kind == .rejected)
            }
            #expect(rig.log.entries.isEmpty)
        }
    }

    @Test("power ON from off wakes the TV with Wake-on-LAN")
    func powerOnFromOff() async throws {
        try await withRokuRig(wol: true) { rig in
            try rig.set(["power": "off"])
            try await rig.driver.perform(.power(.on))
            let wakes = rig.entries("wol")
            #expect(!wakes.isEmpty)
            let macs = Set(wakes.compactMap { $0["mac"]?.stringValue })
            #expect(macs.contains(rig.simulator.wifiMAC))
            #expect(rig.simulator.state.power == .on)
            #expect(await rig.driver.poll(full: false).power == true)
        }
    }

    @Test("power ON from standby sends Wake-on-LAN and PowerOn")
    func powerOnFromStandby() async throws {
        try await withRokuRig(wol: true) { rig in
            try rig.set(["power": "standby"])
            try await rig.driver.perform(.power(.on))
            #expect(rig.keys == ["PowerOn"])
            let wake = await rig.log.waitFor(timeout: .seconds(30)) { $0["kind"]?.stringValue == "wol" }
            #expect(wake != nil)
            #expect(rig.simulator.state.power == .on)
            // Already on: Wake-on-LAN again (harmless), no second PowerOn.
            try await rig.driver.perform(.power(.on))
            #expect(rig.keys == ["PowerOn"])
        }
    }

    @Test("power OFF sends PowerOff only to a TV that is on; never Wake-on-LAN")
    func powerOff() async throws {
        try await withRokuRig(wol: true) { rig in
            try await rig.driver.perform(.power(.off))
            #expect(rig.keys == ["PowerOff"])
            #expect(rig.simulator.state.power == .standby)
            try await rig.driver.perform(.power(.off))
            #expect(rig.keys == ["PowerOff"])
            try rig.set(["power": "off"])
            try await rig.driver.perform(.power(.off))
            let nonWakeEntries = rig.log.entries.filter { $0["kind"]?.stringValue != "wol" }
            #expect(nonWakeEntries.count == 1)
            #expect(rig.entries("wol").isEmpty)
        }
    }

    @Test("TOGGLE turns an on TV off and a standby TV on; Power key is a checked toggle")
    func toggle() async throws {
        try await withRokuRig(wol: true) { rig in
            try await rig.driver.perform(.power(.toggle))
            #expect(rig.keys == ["PowerOff"])
            try await rig.driver.perform(.power(.toggle))
            #expect(rig.keys == ["PowerOff", "PowerOn"])
            try await rig.driver.perform(.key(.vendor("Power"), repeat: 1))
            #expect(rig.keys == ["PowerOff", "PowerOn", "PowerOff"])
        }
    }

    @Test("Limited mode: noticed while polling, and commands fail with what to change")
    func limitedMode() async throws {
        try await withRokuRig(limited: true) { rig in
            var snapshot = await rig.driver.poll(full: true)
            #expect(snapshot.reachable && snapshot.limitedMode == true)
            #expect(snapshot.app == "Roku")
            let error = await #expect(throws: DriverError.self) {
                try await rig.driver.perform(.key(.shared(.home), repeat: 1))
            }
            #expect(error?.kind == .limitedMode)
            #expect(error?.message.contains("Control by mobile apps") == true)
            // Launching still works in Limited mode.
            try await rig.driver.perform(.app("YouTube"))
            #expect(rig.simulator.state.appID == "837")
            try rig.set(["limited": false])
            snapshot = await rig.driver.poll(full: false)
            #expect(snapshot.limitedMode == false && snapshot.mediaState == .playing)
        }
    }

    @Test("a closed port is unreachable, quickly")
    func unreachable() async throws {
        // Held, not listening, for the whole test: refused, and no listener can take it meanwhile.
        let reserved = try ReservedTCPPort(host: "127.0.0.1")
        defer { reserved.release() }
        let port = reserved.port
        let identity = TVIdentity(
            id: TVID("roku_closed")!, kind: .roku, name: "Closed", manufacturer: "Roku", host: "127.0.0.1", port: port)
        let driver = RokuDriver(
            description: TVDescription(identity: identity, capabilities: TVCapabilities(power: true)),
            settings: testSettings(), roku: RokuSettings())
        // Under a clock that never moves, with a 30 s hang bound in real time: the poll ends
        // without any deadline passing, so the port refused it; no timeout ran out.
        let clock = ManualClock()
        let polled = await withDeadline(ContinuousClock.now + .seconds(30), clock: .system) {
            await clock.run { await driver.poll(full: true) }
        }
        let snapshot = try #require(polled, "the poll waited for a deadline")
        #expect(!snapshot.reachable && snapshot.power == false)
        let error = await #expect(throws: DriverError.self) {
            try await driver.perform(.key(.shared(.home), repeat: 1))
        }
        #expect(error?.kind == .unreachable)
        // OFF on an unreachable TV is already done.
        try await driver.perform(.power(.off))
        await #expect(throws: DriverError.self) {
            try await RokuProbe.describe(host: "127.0.0.1", port: port, settings: testSettings())
        }
        // ON waits briefly for an answer; with no MAC to wake it has nothing to try.
        var settings = testSettings()
        settings.wakeWait = .milliseconds(600)
        let silent = RokuDriver(
            description: TVDescription(identity: identity, capabilities: TVCapabilities(power: true)),
            settings: settings, roku: RokuSettings())
        let onError = await #expect(throws: DriverError.self) { try await silent.perform(.power(.on)) }
        #expect(onError?.kind == .unreachable)
        await silent.shutdown()
        await driver.shutdown()
    }
}
