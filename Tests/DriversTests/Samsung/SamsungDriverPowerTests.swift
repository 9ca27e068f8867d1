import Drivers
import Net
import TVModel
import TVSimulators
import Testing
import Wire

@Suite("Samsung driver power against the simulated TV", .serialized)
struct SamsungDriverPowerTests {
    @Test("OFF when on: KEY_POWER once, then OFF for the grace window")
    func offWhenOn() async throws {
        try await withSamsungRig { rig in
            try await withDriver(rig.driver()) { driver, _ in
                try await driver.perform(.power(.off))
                let keys = try await rig.keys(atLeast: 1)
                #expect(keys == ["KEY_POWER Click"])
                #expect(rig.simulator.state.power == .standby)
                let snapshot = await driver.poll(full: false)
                #expect(snapshot.power == false)
                try await driver.perform(.power(.off))
                let keysAfter = try await rig.keys(atLeast: 1)
                #expect(keysAfter == ["KEY_POWER Click"])
            }
        }
    }

    @Test("OFF in standby sends nothing")
    func offInStandby() async throws {
        try await withSamsungRig { rig in
            try rig.set(["power": "standby"])
            try await withDriver(rig.driver()) { driver, _ in
                try await driver.perform(.power(.off))
                #expect(rig.log.entries.isEmpty)
            }
        }
    }

    @Test("ON when on: Wake-on-LAN only, never KEY_POWER")
    func onWhenOn() async throws {
        try await withSamsungRig(wol: true) { rig in
            try await withDriver(rig.driver()) { driver, _ in
                try await driver.perform(.power(.on))
                try await waitFor { !rig.entries("wol").isEmpty }
                #expect(!rig.entries("wol").isEmpty)
                #expect(rig.entries("remote_key").isEmpty)
                #expect(rig.simulator.state.power == .on)
            }
        }
    }

    @Test("ON in standby, woken by the magic packet: no KEY_POWER that would turn it back off")
    func onInStandbyWokenByWoL() async throws {
        try await withSamsungRig(wol: true) { rig in
            try rig.set(["power": "standby"])
            try await withDriver(rig.driver()) { driver, _ in
                try await driver.perform(.power(.on))
                #expect(!rig.entries("wol").isEmpty)
                #expect(rig.entries("remote_key").isEmpty)
                #expect(rig.simulator.state.power == .on)
            }
        }
    }

    @Test("ON in standby that Wake-on-LAN does not wake: the magic packet, then KEY_POWER once")
    func onInStandby() async throws {
        try await withSamsungRig { rig in
            try rig.set(["power": "standby"])
            // The magic packet goes to a socket of ours, not to the simulated TV.
            let listener = try UDPSocket.bind(host: "127.0.0.1", port: 0)
            defer { listener.close() }
            let settings = samsungTestSettings(wolHost: "127.0.0.1", wolPort: listener.localAddress.port)
            try await withDriver(rig.driver(settings: settings)) { driver, _ in
                try await driver.perform(.power(.on))
                let packet = try await listener.receive(deadline: .now + .seconds(2))
                #expect(packet.0.count == 102)
                let keys = try await rig.keys(atLeast: 1)
                #expect(keys == ["KEY_POWER Click"])
                #expect(rig.simulator.state.power == .on)
            }
        }
    }

    @Test("Frame TV OFF: KEY_POWER held 3 s (Press, Release), and the TV is off, not in art mode")
    func frameOff() async throws {
        try await withSamsungRig(frame: true) { rig in
            try await withDriver(rig.driver()) { driver, _ in
                try await driver.perform(.power(.off))
                let keys = try await rig.keys(atLeast: 2)
                #expect(keys == ["KEY_POWER Press", "KEY_POWER Release"])
                let held = rig.entries("remote_key").last?["held_ms"]?.intValue ?? 0
                // As the simulator read it: a busy machine may read the Press late (the hold sent
                // is SamsungPowerPlanner.frameHold, 3.5 s, checked in SamsungPowerTests).
                #expect(held >= 2000)
                #expect(rig.simulator.state.power == .standby)
            }
        }
    }
}
