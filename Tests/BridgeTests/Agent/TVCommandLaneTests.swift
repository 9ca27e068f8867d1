import Drivers
import Harness
import Net
import Synchronization
import TVModel
import Testing
import Wire

@testable import Bridge

/// A TV's command lane alone: its plans, its bounded queue, its expiry and its `command_failed`,
/// with a recording driver that can hang like a dead TV and no broker. Each test runs the lane
/// under a ManualClock, so no message expires unless the test moves the clock past its expiry.
@Suite("TV command lane")
struct TVCommandLaneTests {
    static let tv = TVDescription.sample()
    static let origin = CommandOrigin(topic: "tv2mqtt/roku_sample1/set/key", property: "key", transaction: nil)
    static let home = TVCommand.key(.shared(.home), repeat: 1)

    /// How many quick refreshes the lane asked for.
    final class Refreshes: Sendable {
        private let count = Atomic(0)
        func add() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    let log = PublishedLog()
    let driver = RecordingDriver(description: tv, snapshot: TVSnapshot(reachable: true, power: true))
    let refreshes = Refreshes()
    let clock = ManualClock()

    func lane() throws -> TVCommandLane {
        let refreshes = refreshes
        return TVCommandLane(id: Self.tv.identity.id, driver: driver, context: try .offline(log)) { refreshes.add() }
    }

    /// Submits `commands` as one message, under the test's clock.
    func submit(_ commands: [TVCommand], to lane: TVCommandLane, origin: CommandOrigin = origin) async throws
        -> String?
    {
        let checked = try commands.map { try $0.checked() }
        return await clock.run { await lane.submit(checked, origin: origin) }
    }

    /// Hangs the driver inside a first message, so the next ones wait in the queue.
    func hang(_ lane: TVCommandLane) async throws {
        driver.hold()
        _ = try await submit([Self.home], to: lane)
        let hanging = await waitUntil { driver.performed.count == 1 }
        try #require(hanging, "the first command never reached the driver")
    }

    @Test("a message that waited exactly 5 s is sent; one that waited 1 ms longer fails with command_failed")
    func expiry() async throws {
        let lane = try lane()
        try await hang(lane)
        _ = try await submit([.mute(true)], to: lane)  // waits from virtual time 0
        await clock.advance(by: .milliseconds(1))
        _ = try await submit([.mute(false)], to: lane)  // waits from 1 ms
        await clock.advance(to: TVCommandLane.expiry + .milliseconds(1))
        driver.release()
        let settled = await waitUntil { driver.performed.count == 2 }
        #expect(settled, "performed: \(driver.performed)")
        #expect(driver.performed == [Self.home, .mute(false)], "the one 1 ms too old never reached the TV")
        let expired =
            "expired: the command waited 5001 ms behind earlier ones for this TV; commands older than 5000 ms are dropped, not sent late"
        #expect(log.commandFailures() == [expired])
    }

    @Test("behind a TV that hangs, 32 messages wait and the 33rd is refused at once; the one running does not count")
    func boundedQueue() async throws {
        let lane = try lane()
        try await hang(lane)
        var refusals: [String] = []
        for _ in 0..<TVCommandLane.queueLimit {
            if let refusal = try await submit([.mute(true)], to: lane) { refusals.append(refusal) }
        }
        #expect(refusals.isEmpty)
        let refused = try await submit([.mute(false)], to: lane)
        #expect(refused?.hasPrefix("the command queue of this TV is full (32 commands wait for it)") == true)
        #expect(refused != nil && log.commandFailures() == [refused ?? ""])
        driver.release()
        let settled = await waitUntil { driver.performed.count == 1 + TVCommandLane.queueLimit }
        #expect(settled, "performed \(driver.performed.count - 1) of the queued messages")
        #expect(!driver.performed.contains(.mute(false)))
    }

    @Test("a message with a command the driver refuses fails whole: nothing of it is queued")
    func refusedMessage() async throws {
        let lane = try lane()
        let failure = try await submit([Self.home, .volume(30)], to: lane)
        #expect(failure == "this TV does not report its volume level")
        #expect(log.commandFailures() == ["this TV does not report its volume level"])
        #expect(driver.planned == [Self.home, .volume(30)])
        #expect(driver.performed.isEmpty)
        #expect(refreshes.value == 0)
    }

    @Test("each message carried out asks for one refresh and answers its transaction; one that fails too")
    func refreshAndResponse() async throws {
        let lane = try lane()
        let answered = CommandOrigin(topic: "tv2mqtt/roku_sample1/set", property: nil, transaction: "t1")
        _ = try await submit([Self.home, .mute(true)], to: lane, origin: answered)
        // The refresh is asked for before the response is sent.
        let answeredOnce = await waitUntil { !log.payloads("tv2mqtt/roku_sample1/response").isEmpty }
        #expect(answeredOnce && refreshes.value == 1)
        let responses = log.payloads("tv2mqtt/roku_sample1/response").compactMap { try? JSONParser.parse($0) }
        let response = responses.first
        #expect(responses.count == 1)
        #expect(response?["status"] == "ok" && response?["transaction"] == "t1")
        driver.failNext(DriverError(.unreachable, "the TV did not answer"))
        _ = try await submit([Self.home], to: lane)
        let second = await waitUntil { refreshes.value == 2 }
        #expect(second)
        #expect(log.commandFailures() == ["the TV did not answer"])
        #expect(driver.performed == [Self.home, .mute(true)])
    }
}
