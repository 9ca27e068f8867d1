import Testing

@testable import Bridge

/// When a TV is polled next, decided without a clock: each instant is given, so each decision
/// is checked exactly.
@Suite("Poll schedule")
struct PollScheduleTests {
    static let origin = ContinuousClock.now

    static func at(_ duration: Duration) -> ContinuousClock.Instant { origin + duration }

    /// Runs the round the armed timer is for: whether it was the first and full, and the next
    /// poll armed at its end (`interval` after it, or sooner).
    static func round(
        _ schedule: inout PollSchedule, interval: Duration = .seconds(10), appIsUnknown: Bool = false
    ) -> (first: Bool, full: Bool, next: Duration?) {
        guard let due = schedule.due, schedule.fire(due) else {
            Issue.record("no timer armed, or it did not start a round")
            return (false, false, nil)
        }
        let (first, full) = schedule.beginRound(now: due)
        let next = schedule.endRound(now: due, interval: interval, slow: false, appIsUnknown: appIsUnknown)
        return (first, full, next.map { $0 - origin })
    }

    @Test("a poll wanted sooner replaces the armed one, whose timer is then stale; a later one arms nothing")
    func soonerWins() {
        var schedule = PollSchedule(now: Self.at(.zero))
        #expect(schedule.want(Self.at(.seconds(10))) == Self.at(.seconds(10)))
        #expect(schedule.want(Self.at(.seconds(20))) == nil)
        #expect(schedule.refresh(at: Self.at(.milliseconds(350))) == Self.at(.milliseconds(350)))
        let replaced = schedule.fire(Self.at(.seconds(10)))
        let sooner = schedule.fire(Self.at(.milliseconds(350)))
        #expect(!replaced, "the replaced timer starts nothing")
        #expect(sooner)
    }

    @Test("while a round runs nothing is armed; a refresh asked meanwhile is where its end arms the next poll")
    func refreshDuringRound() {
        var schedule = PollSchedule(now: Self.at(.zero))
        _ = schedule.want(Self.at(.zero))
        let started = schedule.fire(Self.at(.zero))
        #expect(started)
        _ = schedule.beginRound(now: Self.at(.zero))
        #expect(schedule.refresh(at: Self.at(.milliseconds(450))) == nil)
        #expect(schedule.refresh(at: Self.at(.milliseconds(350))) == nil)
        let next = schedule.endRound(
            now: Self.at(.milliseconds(100)), interval: .seconds(10), slow: false, appIsUnknown: false)
        #expect(next == Self.at(.milliseconds(350)), "the earliest refresh asked")
    }

    @Test("a refresh asked before a round began is that round: the round after waits the interval")
    func refreshTakenByRound() {
        var schedule = PollSchedule(now: Self.at(.zero))
        _ = schedule.want(Self.at(.zero))
        _ = Self.round(&schedule)
        #expect(schedule.refresh(at: Self.at(.milliseconds(350))) != nil)
        let refresh = Self.round(&schedule)
        #expect(refresh.next == .milliseconds(350) + .seconds(10))
    }

    @Test("the first round is full, then one every 15 minutes, and the next after an app missing from the list")
    func fullRounds() {
        var schedule = PollSchedule(now: Self.at(.zero))
        _ = schedule.want(Self.at(.zero))
        let first = Self.round(&schedule)
        #expect(first.first && first.full && first.next == .seconds(10))
        // Every 10 s until 15 minutes after the first: 89 rounds that are not full.
        var full: [Bool] = []
        for _ in 1..<90 { full.append(Self.round(&schedule).full) }
        #expect(!full.contains(true))
        let quarterHour = Self.round(&schedule)
        #expect(!quarterHour.first && quarterHour.full)
        let unknownApp = Self.round(&schedule, appIsUnknown: true)
        let afterUnknownApp = Self.round(&schedule)
        #expect(!unknownApp.full)
        #expect(afterUnknownApp.full, "the app in front is missing from the list: a full poll next")
    }

    @Test("polling slowly while the driver's state is pushed, until a round at the configured interval")
    func pollingSlowly() {
        var schedule = PollSchedule(now: Self.at(.zero))
        _ = schedule.want(Self.at(.zero))
        _ = schedule.fire(Self.at(.zero))
        _ = schedule.beginRound(now: Self.at(.zero))
        let slow = schedule.endRound(now: Self.at(.zero), interval: .seconds(300), slow: true, appIsUnknown: false)
        #expect(slow == Self.at(.seconds(300)) && schedule.pollingSlowly)
        let pushStopped = Self.round(&schedule)
        #expect(pushStopped.next == .seconds(310))
        #expect(!schedule.pollingSlowly)
    }

    @Test("stopped: nothing is armed, no timer starts a round, and a round's end arms nothing")
    func stopped() {
        var schedule = PollSchedule(now: Self.at(.zero))
        _ = schedule.want(Self.at(.zero))
        let started = schedule.fire(Self.at(.zero))
        _ = schedule.beginRound(now: Self.at(.zero))
        schedule.stop()
        let next = schedule.endRound(now: Self.at(.zero), interval: .seconds(10), slow: false, appIsUnknown: false)
        let wanted = schedule.want(Self.at(.seconds(1)))
        let fired = schedule.fire(Self.at(.seconds(10)))
        #expect(started && next == nil && wanted == nil && !fired)
    }
}
