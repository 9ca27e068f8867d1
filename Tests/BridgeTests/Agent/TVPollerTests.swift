import Drivers
import Harness
import Net
import Synchronization
import TVModel
import Testing

@testable import Bridge

/// A TV's poller alone, with a recording driver, on a ManualClock: each poll happens at the
/// exact virtual time its loop timer was armed for.
@Suite("TV poller")
struct TVPollerTests {
    /// The virtual time of each poll handed on, and whether it was full.
    final class Polls: Sendable {
        private let polls = Mutex<[(at: Duration, full: Bool)]>([])
        func add(at: Duration, full: Bool) { polls.withLock { $0.append((at, full)) } }
        var times: [Duration] { polls.withLock { $0.map(\.at) } }
        var full: [Bool] { polls.withLock { $0.map(\.full) } }
    }

    let clock = ManualClock()
    let driver = RecordingDriver(description: .sample(), snapshot: TVSnapshot(reachable: true, power: true))
    let polls = Polls()

    /// A poller at `poll_interval` 10 s, started under the test's clock.
    func startPoller() async -> TVPoller {
        let (clock, polls) = (clock, polls)
        return await clock.run {
            let poller = TVPoller(driver: driver, interval: .seconds(10), firstPolls: ProbePool(concurrency: 1))
            poller.start { _, full in
                polls.add(at: clock.elapsed, full: full)
                return false
            }
            return poller
        }
    }

    /// Moves the clock to `time` once the poll due then is armed, and waits for that poll.
    func poll(at time: Duration, count: Int) async -> Bool {
        guard await clock.waitForTimer(at: time) else { return false }
        await clock.advance(to: time)
        return await waitUntil { polls.times.count >= count }
    }

    @Test("the first poll at once and full, then every poll_interval exactly")
    func interval() async {
        // Kept for the whole test: the timers hold the poller weakly, as the agent holds it.
        let poller = await startPoller()
        defer { withExtendedLifetime(poller) {} }
        let first = await waitUntil { polls.times.count == 1 }
        #expect(first)
        #expect(await poll(at: .seconds(10), count: 2))
        #expect(await poll(at: .seconds(20), count: 3))
        #expect(polls.times == [.zero, .seconds(10), .seconds(20)])
        #expect(polls.full == [true, false, false])
        #expect(driver.polls == 3)
    }

    @Test("a refresh 350 ms after a command brings the next poll forward; the replaced timer polls nothing")
    func refresh() async {
        let poller = await startPoller()
        #expect(await poll(at: .seconds(10), count: 2))
        await clock.run { poller.requestRefresh() }
        #expect(await poll(at: .seconds(10) + .milliseconds(350), count: 3))
        // The timer armed for 20 s still fires, and starts nothing: the next poll is at 20.35 s.
        #expect(await poll(at: .seconds(20) + .milliseconds(350), count: 4))
        #expect(polls.times == [.zero, .seconds(10), .milliseconds(10_350), .milliseconds(20_350)])
    }

    @Test("stopped: the poll due next never happens")
    func stop() async {
        let poller = await startPoller()
        let first = await waitUntil { polls.times.count == 1 }
        #expect(first)
        #expect(await clock.waitForTimer(at: .seconds(10)))
        poller.stop()
        await clock.advance(to: .seconds(30))
        #expect(polls.times == [.zero])
        #expect(driver.polls == 1)
    }
}
