import Drivers
import Net
import TVModel

@testable import Bridge

/// A bridge that knows the stand-in vendor (`Vendors.all + [.standIn]`) and one stand-in TV
/// at `host`, configured by address: `body` gets the fixture, the TV and its id. The bridge
/// runs on `clock` (the machine's unless given).
func withStandInBridge(
    host: String, serial: String, clock: LoopClock = .system,
    _ body: (BridgeFixture, StandInTV, String) async throws -> Void
) async throws {
    try await withBridgeFixture { fixture in
        let tv = try StandInTV(host: host, serial: serial)
        defer { tv.stop() }
        let factory = VendorDriverFactory(
            settings: VendorDriverFactory.settings(fixture.configuration(), logger: .disabled),
            vendors: Vendors.all + [.standIn])
        let configuration = fixture.configuration { $0.tvs = [.init(host: tv.host, kind: .standIn, port: tv.port)] }
        try await clock.run { try await fixture.startBridge(configuration, factory: factory) }
        try await body(fixture, tv, "acme_" + serial.lowercased())
    }
}
