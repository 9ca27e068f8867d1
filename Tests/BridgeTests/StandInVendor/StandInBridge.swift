import Configuration
import Drivers
import Net
import TVModel
import TestSupport

@testable import Bridge

extension [Vendor] {
    /// The list the stand-in tests hand the bridge, the configuration and the state file:
    /// the shipped vendors and the stand-in.
    static let withStandIn: [Vendor] = .shipped + [.standIn]
}

/// Starts a bridge with `configuration` that drives the stand-in vendor too.
func startStandInBridge(_ fixture: BridgeFixture, _ configuration: BridgeConfiguration) async throws {
    let factory = VendorDriverFactory(configuration: configuration, vendors: .withStandIn, logger: .disabled)
    try await fixture.startBridge(configuration, factory: factory)
}

/// A bridge that knows the stand-in vendor (`[Vendor].withStandIn`) and one stand-in TV at
/// `host`, configured by address (`configure` may change the configuration further): `body`
/// gets the fixture, the TV and its id. The bridge runs on `clock` (the machine's unless given).
func withStandInBridge(
    host: String, serial: String, asleep: Bool = false, clock: LoopClock = .system,
    configure: (inout BridgeConfiguration) -> Void = { _ in },
    _ body: (BridgeFixture, StandInTV, String) async throws -> Void
) async throws {
    try await withBridgeFixture { fixture in
        let tv = try StandInTV(host: host, serial: serial, asleep: asleep)
        defer { tv.stop() }
        let configuration = fixture.configuration {
            $0.tvs = [.init(host: tv.host, kind: .standIn, port: tv.port)]
            configure(&$0)
        }
        try await clock.run { try await startStandInBridge(fixture, configuration) }
        try await body(fixture, tv, "acme_" + serial.lowercased())
    }
}
