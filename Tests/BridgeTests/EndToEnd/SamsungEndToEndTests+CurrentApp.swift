import Drivers
import Harness
import TVModel
import TVSimulators
import Testing
import Wire

@testable import Bridge

extension SamsungEndToEndTests {
    @Test(
        "the current app in the MQTT state: after an app command, from the TV's remote, cleared by home and power off")
    func currentApp() async throws {
        try await withSamsung { fixture, simulator, log in
            let first = await fixture.expectState(Self.id) { $0["power"] == "ON" }
            #expect(first?["app"] == nil && first?["app_id"] == nil, "home screen: no app, never \"unknown\"")

            try await fixture.use("app", of: Self.id, payload: "Netflix")
            await expectReceived(log) { $0["kind"] == "app_launch" }
            await fixture.expectState(Self.id, "the launched app at the next poll") {
                $0["app"] == "Netflix" && $0["app_id"] == "3201907018807"
            }

            // Started with the TV's own remote: found by the scan within a few 1 s polls.
            try simulator.apply(["app": "111299001912"])
            await fixture.expectState(Self.id, "an app started with the remote") {
                $0["app"] == "YouTube" && $0["app_id"] == "111299001912"
            }

            let beforeHome = await fixture.log.count
            try await fixture.use("home", of: Self.id)
            await fixture.expectState(Self.id, "home closes the app", after: beforeHome) {
                $0["power"] == "ON" && $0["app"] == nil && $0["app_id"] == nil
            }

            try await fixture.use("app", of: Self.id, payload: "YouTube")
            await fixture.expectState(Self.id) { $0["app"] == "YouTube" }
            let beforeOff = await fixture.log.count
            try await fixture.use("power", of: Self.id, payload: "OFF")
            await fixture.expectState(Self.id, "standby: no app", after: beforeOff) {
                $0["power"] == "OFF" && $0["app"] == nil && $0["app_id"] == nil
            }
        }
    }
}
