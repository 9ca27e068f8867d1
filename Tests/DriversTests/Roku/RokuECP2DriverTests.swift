import Drivers
import Harness
import Net
import Synchronization
import TVModel
import TVSimulators
import Testing
import Wire

/// Collects a driver's events (its one consumer) for a test.
final class DriverEventRecorder: Sendable {
    private let events = Mutex<[DriverEvent]>([])

    /// Reads until the driver shuts down (its event stream ends).
    init(_ driver: RokuDriver) {
        Task { [self] in
            for await event in driver.events { self.events.withLock { $0.append(event) } }
        }
    }

    var all: [DriverEvent] { events.withLock { $0 } }

    var states: [TVSnapshot] {
        all.compactMap { event in
            if case .state(let snapshot) = event { return snapshot }
            return nil
        }
    }

    var warnings: [String] {
        all.compactMap { event in
            if case .warning(let message) = event { return message }
            return nil
        }
    }
}

@Suite("Roku driver over ECP-2", .serialized)
struct RokuECP2DriverTests {
    /// Polls once (which opens the session) and waits until the TV pushes its state.
    func pushUp(_ rig: RokuRig) async -> Bool {
        _ = await rig.driver.poll(full: true)
        return await waitUntil(timeout: .seconds(30)) { rig.driver.reconcileInterval != nil }
    }

    @Test("the session opens, state is pushed, polling slows to 60 s, and the snapshot says ecp-2")
    func push() async throws {
        // A clock that never moves: no session deadline can pass on a busy machine.
        try await ManualClock().run {
            try await withRokuRig(ecp2: true) { rig in
                let recorder = DriverEventRecorder(rig.driver)
                #expect(await pushUp(rig))
                #expect(rig.driver.reconcileInterval == .seconds(60))
                #expect(await rig.driver.poll(full: false).controlPath == .ecp2)

                try rig.set(["app": "837"])
                let pushedApp = await waitUntil(timeout: .seconds(30)) {
                    recorder.states.contains { $0.appID == "837" && $0.mediaState == .playing }
                }
                #expect(pushedApp, "states: \(recorder.states)")

                // Volume: first reported by a volume key; the description gains volume and mute.
                try await rig.driver.perform(.key(.shared(.volumeUp), repeat: 2))
                let pushedVolume = await waitUntil(timeout: .seconds(30)) { recorder.states.last?.volume == 17 }
                #expect(pushedVolume, "states: \(recorder.states.suffix(3))")
                let described = recorder.all.contains { event in
                    if case .description(let description) = event { return description.capabilities.volumeLevel }
                    return false
                }
                #expect(described)
                #expect((await rig.driver.description).capabilities.muteState)

                try await rig.driver.perform(.volume(10))
                let level = await waitUntil(timeout: .seconds(30)) { rig.simulator.state.volume == 10 }
                #expect(level)
                try await rig.driver.perform(.mute(true))
                try await rig.driver.perform(.mute(true))  // already muted: nothing sent
                let muted = await waitUntil(timeout: .seconds(30)) { recorder.states.last?.muted == true }
                #expect(muted && rig.simulator.state.muted)
                let mutes = rig.entries("keypress").filter { $0["key"] == "VolumeMute" }
                #expect(mutes.count == 1)

                try rig.set(["power": "standby"])
                let off = await waitUntil(timeout: .seconds(30)) { recorder.states.last?.powerMode == "Ready" }
                #expect(off && recorder.states.last?.power == false)
            }
        }
    }

    @Test("200 key presses in a burst arrive in order, none lost, over the session")
    func burst() async throws {
        // A clock that never moves: no session deadline can pass on a busy machine.
        try await ManualClock().run {
            try await withRokuRig(ecp2: true) { rig in
                #expect(await pushUp(rig))
                let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
                let text = String((0..<200).map { alphabet[$0 % alphabet.count] })
                try await rig.driver.perform(.text(text))
                let typed = rig.entries("text").compactMap { $0["text"]?.stringValue }.joined()
                let overSession = rig.entries("text").allSatisfy { $0["via"] == "ecp-2" }
                #expect(typed == text)
                #expect(overSession)
                #expect(rig.simulator.state.text == text)
            }
        }
    }

    @Test("Limited mode: HTTP refuses keys, the session carries them; the state says which path")
    func limitedMode() async throws {
        // A clock that never moves: no session deadline can pass on a busy machine.
        try await ManualClock().run {
            try await withRokuRig(limited: true, ecp2: true) { rig in
                #expect(await pushUp(rig))
                try await rig.driver.perform(.key(.shared(.home), repeat: 1))
                try await rig.driver.perform(.launch(appID: "12", contentID: "80057281", mediaType: "movie"))
                let snapshot = await rig.driver.poll(full: false)
                #expect(snapshot.limitedMode == true && snapshot.controlPath == .ecp2)
                #expect(snapshot.appID == "12" && snapshot.mediaState == .playing)  // media-player over the session
                let keys = rig.entries("keypress")
                #expect(keys.count == 1 && keys.first?["via"] == "ecp-2" && keys.first?["refused"] == nil)
                #expect(rig.entries("launch").first?["contentId"] == "80057281")
            }
        }
    }

    @Test("a refused authentication is reported once as a warning; the driver stays on HTTP")
    func wrongKey() async throws {
        try await withRokuRig(ecp2: true, ecp2Key: "00000000-0000-0000-0000-000000000000") { rig in
            let recorder = DriverEventRecorder(rig.driver)
            _ = await rig.driver.poll(full: true)
            let warned = await waitUntil(timeout: .seconds(30)) { !recorder.warnings.isEmpty }
            #expect(warned)
            #expect(recorder.warnings.first?.contains("authentication") == true)
            #expect(rig.entries("ecp2-auth").first?["refused"] == "wrong response")
            #expect(rig.driver.reconcileInterval == nil)
            #expect(await rig.driver.poll(full: false).controlPath == .ecp)
            try await rig.driver.perform(.key(.shared(.home), repeat: 1))
            #expect(rig.entries("keypress").first?["via"] == nil)  // over HTTP
        }
    }

    @Test("session lost: push stops (polling resumes), commands fall back to HTTP; a dropped session reconnects")
    func sessionLost() async throws {
        try await withRokuRig(ecp2: true) { rig in
            let recorder = DriverEventRecorder(rig.driver)
            #expect(await pushUp(rig))
            rig.simulator.dropECP2Sessions()
            let down = await waitUntil(timeout: .seconds(30)) { recorder.states.last?.controlPath == .ecp }
            #expect(down)
            let back = await waitUntil(timeout: .seconds(30)) { rig.driver.reconcileInterval != nil }
            #expect(back, "reconnected after about a second")

            rig.simulator.setECP2(false)  // as older firmware: the upgrade is refused from now on
            // The state event comes through the driver's event stream, a moment after the session ends.
            let gone = await waitUntil(timeout: .seconds(30)) {
                rig.driver.reconcileInterval == nil && recorder.states.last?.controlPath == .ecp
            }
            #expect(gone)
            try await rig.driver.perform(.key(.shared(.select), repeat: 1))
            #expect(rig.entries("keypress").last?["via"] == nil)
        }
    }

    @Test("roku.ecp2 off: no session is attempted")
    func off() async throws {
        try await withRokuRig(ecp2: true, driverECP2: .off) { rig in
            _ = await rig.driver.poll(full: true)
            try await Task.sleep(for: .milliseconds(300))
            #expect(rig.simulator.ecp2SessionCount == 0 && rig.entries("ecp2-auth").isEmpty)
            #expect(await rig.driver.poll(full: false).controlPath == .ecp)
        }
    }
}
