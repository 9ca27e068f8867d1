import Clients
import Drivers
import Harness
import Net
import TVModel
import Testing
import Wire

@testable import Bridge

/// A TV's command queue is bounded, and commands older than a few seconds expire
/// with `command_failed`, so a TV that stopped answering does not run a backlog of presses
/// minutes later. Over a real mosquitto, with a recording driver that can hang like a dead TV.
@Suite("Command queue limits")
struct CommandQueueLimitTests {
    /// The messages of the `command_failed` events so far.
    func failures(_ fixture: BridgeFixture) async -> [String] {
        await fixture.log.all("tv2mqtt/bridge/event").compactMap { try? JSONParser.parse($0.payload) }
            .filter { $0["type"] == "command_failed" }.compactMap { $0["message"]?.stringValue }
    }

    /// Hangs the driver inside a first command, so the next ones wait in the queue.
    func hang(_ driver: RecordingDriver, _ fixture: BridgeFixture) async throws {
        driver.hold()
        try await fixture.publish("tv2mqtt/roku_sample1/set/key", "home")
        let hanging = await waitUntil(timeout: .seconds(30)) { driver.performed.count == 1 }
        try #require(hanging, "the first command never reached the driver")
    }

    @Test("behind a TV that hangs, commands beyond the 32 waiting are refused at once (queue full)")
    func boundedQueue() async throws {
        try await withBridgeFixture { fixture in
            let driver = try await fixture.startRecordingTV()
            try await hang(driver, fixture)
            let sent = TVCommandLane.queueLimit + 8
            for _ in 0..<sent { try await fixture.publish("tv2mqtt/roku_sample1/set/key", "VolumeUp") }
            let refusedEight = await waitUntil(timeout: .seconds(30)) {
                await failures(fixture).count { $0.contains("queue of this TV is full") } >= 8
            }
            #expect(refusedEight)
            driver.release()
            // Every one that was queued runs now, or has expired if the test machine was slow.
            let settled = await waitUntil(timeout: .seconds(30)) {
                let expired = await failures(fixture).count { $0.hasPrefix("expired") }
                return driver.performed.count - 1 + expired == TVCommandLane.queueLimit
            }
            #expect(settled, "performed \(driver.performed.count - 1) of the queued commands")
            let full = await failures(fixture).count { $0.contains("queue of this TV is full") }
            #expect(full == 8)
        }
    }

    @Test("commands that waited longer than 5 s expire with command_failed and a response; none reaches the TV")
    func expiry() async throws {
        // On the bridge's clock: the three wait behind the hung one from virtual time 0, and the
        // TV answers again 1 ms past the expiry.
        let clock = ManualClock()
        try await withBridgeFixture { fixture in
            let driver = try await clock.run { try await fixture.startRecordingTV() }
            try await hang(driver, fixture)
            try await fixture.publish("tv2mqtt/roku_sample1/set", #"{"key":"VolumeUp","transaction":"late"}"#)
            try await fixture.publish("tv2mqtt/roku_sample1/set/app", "Netflix")
            try await fixture.publish("tv2mqtt/roku_sample1/set/key", "VolumeUp")
            // Commands are handled in order, requests after them: once this answers, the three
            // are queued, stamped at virtual time 0.
            try await fixture.publish("tv2mqtt/bridge/request/health_check", #"{"transaction":"mark"}"#)
            let marked = await fixture.log.waitFor("tv2mqtt/bridge/response/health_check") { $0.text.contains("mark") }
            #expect(marked != nil)
            await clock.advance(by: TVCommandLane.expiry + .milliseconds(1))
            driver.release()
            let allExpired = await waitUntil(timeout: .seconds(30)) {
                await failures(fixture).count { $0.hasPrefix("expired") } == 3
            }
            let seen = await failures(fixture)
            #expect(allExpired, "failures: \(seen)")
            let response = await fixture.log.waitFor("tv2mqtt/roku_sample1/response") { $0.text.contains("late") }
            let error = try response.map { try JSONParser.parse($0.payload)["error"]?.stringValue ?? "" }
            #expect(error?.hasPrefix("expired: the command waited") == true)
            #expect(driver.performed == [.key(.shared(.home), repeat: 1)], "nothing late reached the TV")
            // A fresh command is not affected.
            try await fixture.publish("tv2mqtt/roku_sample1/set/key", "VolumeUp")
            let fresh = await waitUntil(timeout: .seconds(30)) { driver.performed.count == 2 }
            #expect(fresh)
            // The shutdown's own bounds are on the bridge's clock: it moves while the bridge stops.
            let ticking = Task {
                while !Task.isCancelled {
                    await clock.advance(by: .milliseconds(500))
                    try? await Task.sleep(for: .milliseconds(20))
                }
            }
            await fixture.stopBridge()
            ticking.cancel()
        }
    }
}
