import Net
import TVModel
import TVSimulators
import Testing
import Wire

@testable import Drivers

/// The LG driver against the simulated TV over real sockets: pairing, keys, power, pushed state.
@Suite("LG driver against the simulated TV", .serialized)
struct LGDriverSimulatorTests {
    @Test("the probe names the TV by its UUID, with the description's name and model")
    func probe() async throws {
        try await withLGRig { rig in
            let identity = rig.description.identity
            #expect(identity.kind == .lg)
            #expect(identity.id.rawValue.hasPrefix("lg_"))
            #expect(identity.name == rig.simulator.name)
            #expect(identity.model == rig.simulator.modelName)
            #expect(rig.entries("pairing").isEmpty, "the probe registers nothing")
        }
    }

    @Test("approve: pair emits the client key and the pin; a driver with them registers silently and sends keys")
    func pairAndKeys() async throws {
        try await withLGRig { rig in
            let paired = try await rig.pair()
            #expect(rig.simulator.clientKeys == [paired.key])
            #expect(paired.pin == rig.certificatePin)
            try await withLGDriver(rig.driver(key: paired.key, pin: paired.pin)) { driver, collector in
                try await driver.perform(.key(.shared(.home), repeat: 1))
                try await driver.perform(.key(.vendor("RED"), repeat: 2))
                try await lgWait { rig.buttons.count >= 3 }
                #expect(rig.buttons == ["HOME", "RED", "RED"])
                let actions = rig.entries("pairing").compactMap { $0["action"]?.stringValue }
                #expect(actions.contains("silent"))
                #expect(collector.tokens.isEmpty, "a silent registration issues no new key")
                let leaked = rig.logs.lines.filter { $0.contains(paired.key) }
                #expect(leaked.isEmpty, "the client key is never logged")
            }
        }
    }

    @Test("deny: the command fails unauthorized with what to do, pairing_required, nothing sent")
    func deny() async throws {
        try await withLGRig({ $0.approval = .deny }) { rig in
            try await withLGDriver(rig.driver()) { driver, collector in
                let error = await driverError { () async throws(DriverError) in
                    try await driver.perform(.key(.shared(.home), repeat: 1))
                }
                #expect(error?.kind == .unauthorized)
                #expect(error?.message.contains("choose Accept") == true)
                await collector.settle { !$0.isEmpty }
                #expect(collector.pairingMessages.count == 1)
                #expect(rig.buttons.isEmpty)
                #expect(await driver.poll(full: false).pairingRequired == true)
            }
        }
    }

    @Test("ignore: the registration that never completes ends in pairing_required at the approval time")
    func ignore() async throws {
        try await withLGRig({ $0.approval = .ignore }) { rig in
            let clock = ManualClock()
            try await withLGDriver(rig.driver(approval: .seconds(1))) { driver, collector in
                let pairing = Task {
                    await clock.run { () -> (DriverError?, Duration) in
                        let error = await driverError { () async throws(DriverError) in try await driver.pair() }
                        return (error, clock.elapsed)
                    }
                }
                // The prompt is on the TV (and ignored) once the simulator logged it; its timer is armed.
                #expect(await clock.waitForTimer(at: .seconds(1)))
                try await lgWait(seconds: 30) { rig.entries("pairing").count >= 2 }
                await clock.advance(to: .seconds(1) - .milliseconds(1))
                await clock.advance(to: .seconds(1))
                let (error, failedAt) = await pairing.value
                #expect(failedAt == .seconds(1), "the prompt timed out at \(failedAt)")
                let actions = rig.entries("pairing").compactMap { $0["action"]?.stringValue }
                #expect(actions == ["prompt", "ignored"])
                #expect(error?.kind == .unauthorized)
                #expect(error?.message.contains("nobody answered") == true)
                await collector.settle { !$0.isEmpty }
                #expect(collector.pairingMessages.count == 1)
            }
        }
    }

    @Test("state is pushed: a volume change on the TV arrives as a state event without a poll")
    func pushed() async throws {
        try await withLGRig { rig in
            let paired = try await rig.pair()
            try await withLGDriver(rig.driver(key: paired.key, pin: paired.pin)) { driver, collector in
                let first = await driver.poll(full: true)
                #expect(first.reachable && first.power == true && first.powerMode == "Active")
                #expect(first.volume == 10 && first.appID == "com.webos.app.livetv" && first.channelNumber == "7-1")
                #expect(driver.reconcileInterval == .seconds(60), "subscribed: the bridge only reconciles")
                try rig.simulator.apply(["volume": 33, "app": "netflix"])
                let pushed = { collector.states.contains { $0.volume == 33 && $0.app == "Netflix" } }
                try await lgWait { pushed() }
                let arrived = pushed()
                #expect(arrived)
                try rig.simulator.apply(["power_mode": "Screen Off"])
                try await lgWait { collector.states.last?.powerMode == "Screen Off" }
                #expect(collector.states.last?.power == true, "Screen Off is on with the screen off")
            }
        }
    }

    @Test("power: OFF goes to Active Standby (off); ON wakes it by Wake-on-LAN to the reported MACs")
    func power() async throws {
        try await withLGRig { rig in
            let paired = try await rig.pair()
            try await withLGDriver(rig.driver(key: paired.key, pin: paired.pin)) { driver, collector in
                _ = await driver.poll(full: true)
                #expect(await driver.description.identity.macs.contains(rig.simulator.wiredMAC))
                try await driver.perform(.power(.off))
                try await lgWait { collector.states.last?.powerMode == "Active Standby" }
                #expect(collector.states.last?.power == false)
                #expect(rig.simulator.state.power == .activeStandby)
                try await driver.perform(.power(.on))
                try await lgWait { rig.simulator.state.power == .active }
                #expect(!rig.entries("wol").isEmpty)
                #expect(rig.simulator.state.power == .active)
            }
        }
    }

    @Test(
        "Suspend closes the socket: noticed at once, off; Wake-on-LAN wakes it, the next poll reconnects and subscribes"
    )
    func suspendAndReconnect() async throws {
        try await withLGRig { rig in
            let paired = try await rig.pair()
            try await withLGDriver(rig.driver(key: paired.key, pin: paired.pin)) { driver, _ in
                _ = await driver.poll(full: true)
                #expect(driver.reconcileInterval != nil)
                try rig.simulator.apply(["power_mode": "Suspend"])
                try await lgWait { driver.reconcileInterval == nil }
                #expect(driver.reconcileInterval == nil, "the lost socket was noticed: the bridge polls again")
                let off = await driver.poll(full: false)
                #expect(!off.reachable && off.power == false)
                try await driver.perform(.power(.on))
                try await lgWait { rig.simulator.state.power == .active }
                var on = await driver.poll(full: false)
                for _ in 0..<20 where !on.reachable {
                    try await Task.sleep(for: .milliseconds(250))
                    on = await driver.poll(full: false)
                }
                #expect(on.reachable && on.power == true)
                #expect(driver.reconcileInterval != nil, "subscribed again")
            }
        }
    }

    @Test("volume, mute, app, input, channel and text reach the TV as SSAP requests")
    func commands() async throws {
        try await withLGRig { rig in
            let paired = try await rig.pair()
            try await withLGDriver(rig.driver(key: paired.key, pin: paired.pin)) { driver, _ in
                _ = await driver.poll(full: true)
                try await driver.perform(.volume(25))
                try await driver.perform(.mute(true))
                try await driver.perform(.app("YouTube"))
                try await driver.perform(.input("HDMI 2"))
                try await driver.perform(.channel("7-2"))
                try await driver.perform(.text("hello"))
                let state = rig.simulator.state
                #expect(state.volume == 25 && state.muted)
                #expect(state.channel?.number == "7-2")
                #expect(state.text == "hello")
                let uris = rig.entries("ssap").compactMap { $0["uri"]?.stringValue }
                #expect(uris.contains("ssap://system.launcher/launch"))
                #expect(uris.contains("ssap://tv/switchInput"))
            }
        }
    }

    @Test("screen off and on, sound output and a toast: LG's own commands, state pushed back")
    func screenSoundToast() async throws {
        try await withLGRig { rig in
            let paired = try await rig.pair()
            try await withLGDriver(rig.driver(key: paired.key, pin: paired.pin)) { driver, collector in
                let first = await driver.poll(full: true)
                #expect(first.screenOn == true && first.soundOutput == "tv_speaker")
                let capabilities = await driver.description.capabilities
                #expect(capabilities.screenControl && capabilities.toast)
                #expect(capabilities.soundOutputs.contains("external_arc"))
                try await driver.perform(.screen(false))
                #expect(rig.simulator.state.power == .screenOff)
                try await lgWait { collector.states.last?.screenOn == false }
                #expect(collector.states.last?.screenOn == false && collector.states.last?.power == true)
                try await driver.perform(.screen(true))
                #expect(rig.simulator.state.power == .active)
                try await driver.perform(.soundOutput("external_arc"))
                #expect(rig.simulator.state.soundOutput == "external_arc")
                try await lgWait { collector.states.last?.soundOutput == "external_arc" }
                #expect(collector.states.last?.soundOutput == "external_arc")
                try await driver.perform(.toast("Dinner is ready"))
                let toasts = rig.entries("toast").compactMap { $0["message"]?.stringValue }
                #expect(toasts == ["Dinner is ready"])
                #expect(throws: CommandRejection.self) { try driver.plan(.soundOutput("kitchen_radio")) }
            }
        }
    }

    @Test("an app's icon is read from the TV's own host (port 3000), never from a host the list names")
    func appIcon() async throws {
        try await withLGRig { rig in
            let paired = try await rig.pair()
            try await withLGDriver(rig.driver(key: paired.key, pin: paired.pin)) { driver, _ in
                _ = await driver.poll(full: true)
                #expect(await driver.description.capabilities.appIcons)
                let icon = try await driver.appIcon("netflix")
                #expect(icon?.contentType == "image/png")
                #expect(try await driver.appIcon("not.an.app") == nil)
                #expect(LGReadings.iconPath("http://192.0.2.9:3000/resources/ab/x.png", host: "127.0.0.7") == nil)
                #expect(
                    LGReadings.iconPath("https://127.0.0.7:3001/resources/ab/x.png", host: "127.0.0.7")
                        == "/resources/ab/x.png")
            }
        }
    }

    @Test("a changed certificate: certificateChanged, the command fails, the client key is not sent")
    func certificateChanged() async throws {
        try await withLGRig { rig in
            let paired = try await rig.pair()
            try await withLGRig { other in
                let driver = rig.driver(key: paired.key, pin: paired.pin, securePort: other.simulator.portWSS)
                try await withLGDriver(driver) { driver, collector in
                    let error = await driverError { () async throws(DriverError) in
                        try await driver.perform(.key(.shared(.home), repeat: 1))
                    }
                    #expect(error?.kind == .unauthorized)
                    #expect(error?.message.contains("certificate changed") == true)
                    await collector.settle { !$0.isEmpty }
                    #expect(collector.certificateChanges == 1)
                    #expect(other.entries("pairing").isEmpty, "nothing was registered with the impostor")
                }
            }
        }
    }

    @Test("a TV paired over TLS is never spoken to in clear, even when its TLS port refuses")
    func noPlainAfterTLS() async throws {
        try await withLGRig { rig in
            let paired = try await rig.pair()
            let registrations = rig.entries("pairing").count
            let closed = try closedPort(host: rig.simulator.host)
            try await withLGDriver(rig.driver(key: paired.key, pin: paired.pin, securePort: closed)) { driver, _ in
                let snapshot = await driver.poll(full: false)
                #expect(!snapshot.reachable)
                #expect(rig.entries("pairing").count == registrations, "nothing registered in clear")
            }
        }
    }

    @Test(
        "pairing again keeps the pin: with an impostor on 3000 only (3001 refused) nothing registers in clear, the key stays"
    )
    func pairAgainKeepsPin() async throws {
        try await withLGRig { rig in
            let paired = try await rig.pair()
            try await withLGRig({ $0.plain = true }) { impostor in
                let closed = try closedPort(host: rig.simulator.host)
                let driver = LGDriver(
                    description: rig.description, settings: rig.settings,
                    options: LGDriverOptions(
                        securePort: closed, plainPort: impostor.simulator.portWS, clientKey: paired.key,
                        certificatePin: paired.pin, approvalTimeout: .seconds(5)))
                try await withLGDriver(driver) { driver, collector in
                    let error = await driverError { () async throws(DriverError) in try await driver.pair() }
                    #expect(error?.kind == .unreachable, "\(String(describing: error))")
                    #expect(impostor.entries("pairing").isEmpty, "nothing was registered in clear with the impostor")
                    #expect(collector.tokens.isEmpty && collector.pins.isEmpty, "no key, no pin replaced")
                }
            }
            // The key and the pin still reach the real TV, silently.
            let registrations = rig.entries("pairing").count
            try await withLGDriver(rig.driver(key: paired.key, pin: paired.pin)) { driver, _ in
                try await driver.perform(.key(.shared(.home), repeat: 1))
                try await lgWait { !rig.buttons.isEmpty }
                #expect(rig.buttons.contains("HOME"), "\(rig.buttons)")
            }
            #expect(rig.entries("pairing").count >= registrations)
        }
    }

    @Test("pairing again over TLS with a changed certificate accepts it, with the warning, and pins it")
    func pairAgainNewCertificate() async throws {
        try await withLGRig { rig in
            let paired = try await rig.pair()
            try await withLGRig { other in
                let driver = LGDriver(
                    description: rig.description, settings: rig.settings,
                    options: LGDriverOptions(
                        securePort: other.simulator.portWSS ?? 1, plainPort: other.simulator.portWS,
                        clientKey: paired.key, certificatePin: paired.pin, approvalTimeout: .seconds(5)))
                try await withLGDriver(driver) { driver, collector in
                    try await driver.pair()
                    await collector.settle { events in events.contains { if case .token = $0 { true } else { false } } }
                    #expect(collector.pins == [other.certificatePin])
                    let warned = rig.logs.lines.filter { $0.contains("pairing accepted a new TLS certificate") }
                    #expect(warned.count == 1, "\(rig.logs.lines)")
                }
            }
        }
    }

    @Test("a TV without TLS is not reached in clear unless allowed: pairing_required says why, nothing crosses 3000")
    func plainModelNotAllowed() async throws {
        try await withLGRig({ $0.plain = true }) { rig in
            let closed = try closedPort(host: rig.simulator.host)
            try await withLGDriver(rig.driver(securePort: closed)) { driver, collector in
                var error: DriverError?
                do { try await driver.pair() } catch let refusal as DriverError { error = refusal }
                #expect(error?.kind == .unauthorized)
                #expect(error?.message.contains("allow_cleartext") == true, "\(String(describing: error))")
                await collector.settle { events in
                    events.contains { if case .pairingRequired = $0 { true } else { false } }
                }
                #expect(rig.simulator.clientKeys.isEmpty, "a registration reached port 3000")
            }
        }
    }

    @Test(
        "a TV without TLS (plain model) with allow_cleartext pairs and takes keys on port 3000, each connection a warning"
    )
    func plainModel() async throws {
        try await withLGRig({ $0.plain = true }) { rig in
            let closed = try closedPort(host: rig.simulator.host)
            try await withLGDriver(rig.driver(securePort: closed, allowCleartext: true)) { driver, collector in
                try await driver.pair()
                let warned = rig.logs.lines.filter {
                    $0.contains("warning") && $0.contains("reaching the TV in clear on port")
                }
                #expect(warned.count == 1, "\(rig.logs.lines.suffix(5))")
                await collector.settle { events in events.contains { if case .token = $0 { true } else { false } } }
                #expect(collector.pins.isEmpty, "no certificate to pin")
                try await driver.perform(.key(.shared(.back), repeat: 1))
                try await lgWait { rig.buttons == ["BACK"] }
                #expect(rig.buttons == ["BACK"])
            }
        }
    }
}

extension EventCollector {
    var states: [TVSnapshot] { events.compactMap { if case .state(let snapshot) = $0 { snapshot } else { nil } } }
}

@Suite("LG: found on TLS, never reached in clear")
struct LGCleartextPolicyTests {
    static func driver(port: UInt16, allowed: Bool) async -> Bool {
        let identity = TVIdentity(
            id: TVID("lg_policy")!, kind: .lg, name: "Study", manufacturer: "LG", host: "192.0.2.70", port: port)
        let factory = VendorDriverFactory(
            vendors: [.lg], settings: lgTestSettings(wolPort: nil), sections: VendorSettingsBag(),
            tvOptions: [(host: "192.0.2.70", id: nil, options: TVOptions(allowsCleartext: allowed))])
        let description = TVDescription(identity: identity, capabilities: TVCapabilities(power: true))
        let driver = factory.makeDriver(for: description, secrets: TVSecrets()) as? LGDriver
        return await driver?.connection.configuration.allowCleartext ?? true
    }

    @Test("allow_cleartext reaches port 3000 only for a TV found there; one the probe found on 3001 never")
    func foundOnTLS() async {
        #expect(await Self.driver(port: LGPorts.plain, allowed: true))
        #expect(await !Self.driver(port: LGPorts.secure, allowed: true), "a TV found on TLS")
        #expect(await !Self.driver(port: LGPorts.plain, allowed: false), "not allowed")
    }

    @Test("the probe records the port that answered: 3000 (its own, here) only when TLS was refused")
    func probeRecordsThePort() async throws {
        try await withLGRig({ $0.plain = true }) { rig in
            #expect(rig.description.identity.port == rig.simulator.portWS)
        }
        try await withLGRig { rig in
            #expect(rig.description.identity.port == rig.simulator.portWSS)
        }
    }
}
