import Configuration
import Net
import Support
import TVModel
import TVSimulators
import TestSupport
import Testing

@testable import Bridge
@testable import Drivers

@Suite("Vendor driver factory")
struct VendorDriverFactoryTests {
    @Test("settings come from the configuration's wol; each driver gets its vendor's section")
    func settings() async {
        var configuration = BridgeConfiguration()
        configuration.wol.targets = [HostPort(host: "127.0.0.1", port: 4009)]
        configuration.wol.repeatCount = 5
        configuration.vendorSettings[RokuSettings.self].ecp2 = .off
        configuration.vendorSettings[SamsungSettings.self].clientName = "den"
        configuration.vendorSettings[SamsungSettings.self].events = false  // no subscription to a TV not there
        let factory = VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled)
        let settings = factory.settings
        #expect(settings.wolTargets == [DriverSettings.WakeTarget(host: "127.0.0.1", port: 4009)])
        #expect(settings.wolRepeat == 5)
        #expect(settings.connectTimeout == .seconds(3) && settings.requestTimeout == .seconds(5))
        let roku = factory.makeDriver(for: .sample(), secrets: TVSecrets()) as? RokuDriver
        #expect(roku?.roku.ecp2 == .off)
        var samsungTV = TVDescription.sample(id: "samsung_sample1")
        samsungTV.identity.kind = .samsung
        let samsung = factory.makeDriver(for: samsungTV, secrets: TVSecrets()) as? SamsungDriver
        #expect(samsung?.samsung.clientName == "den")
        await roku?.shutdown()
        await samsung?.shutdown()
    }

    @Test("probe finds a simulated Roku with kind nil; asking it as a Samsung TV fails")
    func probe() async throws {
        let simulator = try await RokuSimulator.start(
            RokuSimulatorOptions(host: "127.0.0.2", port: 0), log: .memory())
        let factory = VendorDriverFactory(
            vendors: .shipped, settings: DriverSettings(wolTargets: []), sections: VendorSettingsBag())
        do {
            // The probes on a clock that never moves (the simulator keeps real time): each ends
            // in what the simulator answered, however busy the machine.
            let frozen = ManualClock()
            let description = try await frozen.run {
                try await factory.probe(host: "127.0.0.2", kind: nil, port: simulator.port)
            }
            #expect(description.identity.id == TVID(kind: .roku, hardwareID: simulator.serial))
            #expect(description.identity.port == simulator.port)
            let driver = factory.makeDriver(for: description, secrets: TVSecrets())
            #expect(driver is RokuDriver)
            #expect(await driver.poll(full: true).power == true)
            await driver.shutdown()
            let error = await #expect(throws: DriverError.self) {
                try await frozen.run {
                    try await factory.probe(host: "127.0.0.2", kind: .samsung, port: simulator.port)
                }
            }
            #expect(error != nil && error?.kind != .unsupported)
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }
}
