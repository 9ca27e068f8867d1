import Drivers
import Harness
import Net
import Support
import TVModel
import TVSimulators
import Testing
import Wire

/// "Control by mobile apps" beyond the Limited-mode body, against `tvsim roku`'s
/// `ecp_setting_mode` and `silent`: Roku OS 15.2.4 refusing plain-HTTP keypresses under
/// Enabled, and a Roku that stops answering after a software update.
@Suite("Roku: refusals under Control by mobile apps")
struct RokuECPSettingDriverTests {
    @Test(
        "Enabled refuses keys over HTTP and no ECP-2: the key fails naming Permissive, the state says limited with why, launch works"
    )
    func enabledWithoutECP2() async throws {
        try await withRokuRig(ecpSetting: .enabled) { rig in
            var snapshot = await rig.driver.poll(full: true)
            #expect(snapshot.declared["ecp_setting_mode"] == "enabled" && snapshot.limitedMode == false)
            let error = await #expect(throws: DriverError.self) {
                try await rig.driver.perform(.key(.shared(.home), repeat: 1))
            }
            #expect(error?.kind == .limitedMode)
            let message = error?.message ?? ""
            #expect(message.contains("Control by mobile apps › Network access: Permissive"), "\(message)")
            snapshot = await rig.driver.poll(full: false)
            #expect(snapshot.limitedMode == true)
            #expect(snapshot.limitedReason?.contains("Network access: Permissive") == true)
            // Launching still works under Enabled.
            try await rig.driver.perform(.app("YouTube"))
            #expect(rig.simulator.state.appID == "837")
            // The user chooses Permissive: the state says so at the next poll, and keys work.
            try rig.set(["ecp_setting_mode": "permissive"])
            snapshot = await rig.driver.poll(full: false)
            #expect(snapshot.limitedMode == false && snapshot.limitedReason == nil)
            try await rig.driver.perform(.key(.shared(.home), repeat: 1))
            #expect(rig.simulator.state.appID == RokuCatalog.homeID)
        }
    }

    @Test("Default refuses like Enabled; roku.ecp2 off leaves no other path")
    func defaultWithECP2Off() async throws {
        try await withRokuRig(ecp2: true, driverECP2: .off, ecpSetting: .default) { rig in
            _ = await rig.driver.poll(full: true)
            let error = await #expect(throws: DriverError.self) {
                try await rig.driver.perform(.text("hi"))
            }
            #expect(error?.message.contains("Network access: Permissive") == true, "\(String(describing: error))")
            let overECP2 = rig.entries("text").filter { $0["via"] != nil }
            #expect(rig.entries("keypress").isEmpty && overECP2.isEmpty)
        }
    }

    @Test(
        "Enabled refuses a key over HTTP while ECP-2 is offered: the key goes once more, over the session, and succeeds"
    )
    func enabledRetriedOverECP2() async throws {
        try await withRokuRig(ecp2: true, ecpSetting: .enabled) { rig in
            // The driver runs under a clock that never moves: the retry waits for the session
            // being opened, and no deadline (its 5 s wait, the session's own timeouts) can
            // pass first however slow the machine is.
            let clock = ManualClock()
            // Before any poll no session is up, so the key goes over HTTP first.
            let sent = Task {
                try await clock.run { try await rig.driver.perform(.key(.shared(.home), repeat: 1)) }
            }
            let finished = await withDeadline(ContinuousClock.now + .seconds(30), clock: .system) {
                await sent.result
            }
            let result = try #require(finished, "the key did not finish within 30 s")
            try result.get()
            let presses = rig.entries("keypress")
            #expect(presses.count == 2, "\(presses)")
            #expect(presses.first?["refused"] == "ecp-setting-mode enabled")
            #expect(presses.last?["via"] == "ecp-2" && presses.last?["refused"] == nil)
            // It went through: nothing is limited.
            let polled = await clock.run { await rig.driver.poll(full: false) }
            #expect(polled.limitedMode == false)
        }
    }

    @Test(
        "Enabled refuses a key over HTTP and the Roku refuses our ECP-2 key: the refusal is said at once, without waiting"
    )
    func enabledECP2Refused() async throws {
        try await withRokuRig(ecp2: true, ecp2Key: "00000000-0000-0000-0000-000000000000", ecpSetting: .enabled) {
            rig in
            let clock = ManualClock()
            let sent = Task {
                await clock.run {
                    await driverError { () async throws(DriverError) in
                        try await rig.driver.perform(.key(.shared(.home), repeat: 1))
                    }
                }
            }
            let finished = await withDeadline(ContinuousClock.now + .seconds(30), clock: .system) {
                await sent.value
            }
            let error = try #require(finished, "the key did not finish within 30 s")
            #expect(error?.kind == .limitedMode)
            #expect(error?.message.contains("Network access: Permissive") == true, "\(String(describing: error))")
            // Finished with the clock still at 0: the refused session ended the wait at once,
            // it did not wait out RokuDriver.sessionWaitForRetry.
            #expect(rig.entries("keypress").count == 1)
        }
    }

    @Test(
        "a Roku that answered and now times out names the likely causes; back with new software, the log says from and to"
    )
    func silentAfterUpdate() async throws {
        let logs = CapturingSink()
        try await withRokuRig(adjust: { $0.logger = Logger(label: "test", sink: logs, threshold: LogThreshold(.info)) })
        {
            rig in
            #expect(await rig.driver.poll(full: true).reachable)
            #expect(await rig.driver.poll(full: false).unreachableHint == nil)
            try rig.set(["silent": true])
            let lost = await rig.driver.poll(full: false)
            #expect(!lost.reachable)
            let hint = lost.unreachableHint ?? ""
            #expect(hint.contains("Fast TV start") && hint.contains("Control by mobile apps"), "\(hint)")
            try rig.set(["silent": false, "software_version": "15.2.4"])
            #expect(await rig.driver.poll(full: false).reachable)
            let changed = logs.all.filter { $0.message.contains("software changed") }
            #expect(changed.count == 1, "\(logs.lines)")
            #expect(changed.first?.message.contains("from 12.5.0 to 15.2.4") == true, "\(logs.lines)")
        }
    }

    @Test("a Roku that refuses connections (switched off at the plug) gets no such hint")
    func refusedConnectionsHaveNoHint() async throws {
        try await withRokuRig { rig in
            #expect(await rig.driver.poll(full: true).reachable)
            try rig.set(["power": "off"])
            let lost = await rig.driver.poll(full: false)
            #expect(!lost.reachable && lost.unreachableHint == nil)
        }
    }
}
