import Configuration
import Drivers
import Support
import TVModel
import TVSimulators
import TestSupport
import Testing

@testable import Bridge

@Suite("Vendor driver factory with Samsung TVs", .frozenClock)
struct VendorDriverFactorySamsungTests {
    @Test("kind nil finds a simulated Samsung; the driver uses the configured port_wss and port_upnp")
    func probeAndMake() async throws {
        let simulator = try await SamsungSimulator.start(
            SamsungSimulatorOptions(host: "127.0.0.3", portWS: 0, portWSS: 0, portUPnP: 0), log: .memory())
        do {
            var configuration = BridgeConfiguration()
            var tv = BridgeConfiguration.ConfiguredTV(host: "127.0.0.3", kind: .samsung, port: simulator.portWS)
            tv.vendorOptions[SamsungTVOptions.self].secure = simulator.portWSS
            tv.vendorOptions[SamsungTVOptions.self].upnp = simulator.portUPnP
            configuration.tvs = [tv]
            configuration.wol.targets = []
            let factory = VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled)
            let options = factory.tvOptions["127.0.0.3"]?.vendorKeys[SamsungTVOptions.self]
            #expect(options == SamsungTVOptions(secure: simulator.portWSS, upnp: simulator.portUPnP))
            let description = try await factory.probe(host: "127.0.0.3", kind: nil, port: simulator.portWS)
            #expect(description.identity.kind == .samsung)
            #expect(description.identity.id == TVID(kind: .samsung, hardwareID: simulator.duid))
            let driver = factory.makeDriver(for: description, secrets: TVSecrets())
            #expect(driver is SamsungDriver)
            let snapshot = await driver.poll(full: false)
            #expect(snapshot.power == true)
            #expect(snapshot.volume == simulator.state.volume)
            try await driver.perform(.key(.shared(.home), repeat: 1))
            await driver.shutdown()
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }
}
