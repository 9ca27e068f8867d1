import Drivers
import Foundation
import Net
import Persistence
import Support
import TVModel
import TVSimulators
import TestSupport
import Testing

@testable import Bridge
@testable import BridgeCommandLine

@Suite("tv2mqtt pair with a simulated Samsung TV")
struct PairCommandSamsungTests {
    @Test("pair saves the token and the certificate pin in the state directory")
    func pair() async throws {
        let simulator = try await SamsungSimulator.start(
            SamsungSimulatorOptions(host: "127.0.0.3", portWS: 0, portWSS: 0, portUPnP: 0), log: .memory())
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pair-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let config = directory.appendingPathComponent("config.json")
            let text = """
                {"wol": {"targets": []}, "tvs": [{"host": "127.0.0.3", "kind": "samsung", \
                "port": \(simulator.portWS), "port_wss": \(simulator.portWSS), "port_upnp": \(simulator.portUPnP)}]}
                """
            try Data(text.utf8).write(to: config)
            let state = directory.appendingPathComponent("state").path
            // On a clock that never moves: the command ends in what the TV answered, never in a
            // timeout or a wait for time to pass, however busy the machine.
            let status = try await ManualClock().run {
                try await PairCommand.main(
                    ["--config", config.path, "--state-dir", state, "127.0.0.3"], environment: [:],
                    vendors: .shipped, makeFactory: VendorDriverFactory.init(configuration:vendors:logger:))
            }
            #expect(status == 0)
            let saved = StateStore(directory: state, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled).load()
                .tvs
            let record = saved.first
            #expect(saved.count == 1)
            #expect(record?.identity.id == TVID(kind: .samsung, hardwareID: simulator.duid))
            #expect(record?.token != nil && record?.token == simulator.issuedTokens.first)
            #expect(record?.certificatePin?.count == 64)
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }
}
