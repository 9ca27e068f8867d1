import Configuration
import Drivers
import Support
import TVModel
import TVSimulators
import Testing

@testable import Bridge

@Suite("Vendor driver factory")
struct VendorDriverFactoryTests {
    @Test("settings come from the configuration's wol, roku and samsung sections")
    func settings() {
        var configuration = BridgeConfiguration()
        configuration.wol.targets = [HostPort(host: "127.0.0.1", port: 4009)]
        configuration.wol.repeatCount = 5
        configuration.vendorSettings[RokuSettings.self].ecp2 = .off
        configuration.vendorSettings[SamsungSettings.self].clientName = "den"
        let settings = VendorDriverFactory(configuration: configuration, logger: .disabled).settings
        #expect(settings.wolTargets == [DriverSettings.WakeTarget(host: "127.0.0.1", port: 4009)])
        #expect(settings.wolRepeat == 5)
        #expect(settings.rokuECP2 == .off)
        #expect(settings.samsungClientName == "den")
        #expect(settings.connectTimeout == .seconds(3) && settings.requestTimeout == .seconds(5))
    }

    @Test("probe finds a simulated Roku with kind nil; asking it as a Samsung TV fails")
    func probe() async throws {
        let simulator = try await RokuSimulator.start(
            RokuSimulatorOptions(host: "127.0.0.2", port: 0), log: .memory())
        let factory = VendorDriverFactory(settings: DriverSettings(wolTargets: []))
        do {
            let description = try await factory.probe(host: "127.0.0.2", kind: nil, port: simulator.port)
            #expect(description.identity.id == TVID(kind: .roku, hardwareID: simulator.serial))
            #expect(description.identity.port == simulator.port)
            let driver = factory.makeDriver(for: description, secrets: TVSecrets())
            #expect(driver is RokuDriver)
            #expect(await driver.poll(full: true).power == true)
            await driver.shutdown()
            let error = await #expect(throws: DriverError.self) {
                try await factory.probe(host: "127.0.0.2", kind: .samsung, port: simulator.port)
            }
            #expect(error != nil && error?.kind != .unsupported)
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }
}
