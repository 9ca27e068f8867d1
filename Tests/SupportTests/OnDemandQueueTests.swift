import Support
import Synchronization
import Testing

/// `OnDemandQueue` is the project's one serial queue (a TV's commands and driver events, a
/// remote channel's frames): jobs done in order by one carrier task, which exists only while
/// there are jobs.
@Suite("OnDemandQueue")
struct OnDemandQueueTests {
    /// An owner as the project's are: the queue in a `Mutex`, a carrier that drains it.
    final class Owner: Sendable {
        let queue = Mutex(OnDemandQueue<Int>())
        let done = Mutex<[Int]>([])
        let running = Mutex(0)
        let mostAtOnce = Mutex(0)
        /// Jobs wait here until the test lets them end (nil: they end at once).
        let gate = Mutex<[CheckedContinuation<Void, Never>]?>(nil)

        func add(_ job: Int, limit: Int = .max) -> Bool {
            queue.withLock { $0.add(job, limit: limit) { Task { await self.carry() } } }
        }

        var hasCarrier: Bool { queue.withLock { $0.carrier != nil } }
        var doneJobs: [Int] { done.withLock { $0 } }

        /// Queues `job` as a caller that will carry the queue itself when nobody does.
        func addCarriedByCaller(_ job: Int) -> Bool { queue.withLock { $0.addCarriedByCaller(job) } }

        /// The caller's side: does `count` jobs itself (none: stops at once), then hands off.
        func carryAsCaller(jobs count: Int) {
            for _ in 0..<count {
                guard let job = queue.withLock({ $0.next() }) else { return }
                done.withLock { $0.append(job) }
            }
            queue.withLock { $0.handOff { Task { await self.carry() } } }
        }

        var isCarried: Bool { queue.withLock { $0.isCarried } }

        private func carry() async {
            while !Task.isCancelled, let job = queue.withLock({ $0.next() }) {
                let now = running.withLock { running in
                    running += 1
                    return running
                }
                mostAtOnce.withLock { $0 = max($0, now) }
                await withCheckedContinuation { continuation in
                    let held = gate.withLock { gate -> Bool in
                        guard gate != nil else { return false }
                        gate?.append(continuation)
                        return true
                    }
                    if !held { continuation.resume() }
                }
                running.withLock { $0 -= 1 }
                done.withLock { $0.append(job) }
            }
        }

        /// Holds the next jobs until `open()`.
        func close() { gate.withLock { $0 = [] } }

        func open() {
            let waiting = gate.withLock { gate in
                defer { gate = nil }
                return gate ?? []
            }
            for continuation in waiting { continuation.resume() }
        }

        var heldCount: Int { gate.withLock { $0?.count ?? 0 } }
    }

    @Test("jobs are done in the order added, one at a time")
    func inOrder() async {
        let owner = Owner()
        for job in 0..<50 { _ = owner.add(job) }
        let finished = await waitUntil { owner.doneJobs.count == 50 }
        #expect(finished)
        #expect(owner.doneJobs == Array(0..<50))
        let most = owner.mostAtOnce.withLock { $0 }
        #expect(most == 1)
    }

    @Test("the carrier ends when the queue is empty, and the next job starts another")
    func carrierOnDemand() async {
        let owner = Owner()
        #expect(!owner.hasCarrier)
        _ = owner.add(1)
        let ended = await waitUntil { !owner.hasCarrier }
        #expect(ended, "a carrier with nothing to do ends")
        #expect(owner.doneJobs == [1])
        _ = owner.add(2)
        let again = await waitUntil { owner.doneJobs == [1, 2] && !owner.hasCarrier }
        #expect(again)
    }

    @Test("a full queue refuses a job; the one being done does not count")
    func limit() async {
        let owner = Owner()
        owner.close()
        #expect(owner.add(0, limit: 2))
        let started = await waitUntil { owner.heldCount == 1 }
        #expect(started)
        #expect(owner.add(1, limit: 2))
        #expect(owner.add(2, limit: 2))
        let refused = owner.add(3, limit: 2)
        #expect(!refused)
        owner.open()
        let finished = await waitUntil { owner.doneJobs.count == 3 }
        #expect(finished)
        #expect(owner.doneJobs == [0, 1, 2])
    }

    @Test("cancelAll drops the waiting jobs and cancels the carrier")
    func cancelAll() async {
        let owner = Owner()
        owner.close()
        _ = owner.add(0)
        let started = await waitUntil { owner.heldCount == 1 }
        #expect(started)
        _ = owner.add(1)
        owner.queue.withLock { $0.cancelAll() }
        #expect(!owner.hasCarrier)
        owner.open()
        // The job being done ends; the cancelled carrier takes no other.
        let ended = await waitUntil { owner.doneJobs == [0] }
        #expect(ended)
        _ = owner.add(2)
        let restarted = await waitUntil { owner.doneJobs == [0, 2] }
        #expect(restarted, "after cancelAll the next add starts a new carrier")
    }
}

extension OnDemandQueueTests {
    @Test("a caller that carries the queue does its jobs itself; nobody else starts meanwhile")
    func callerCarries() async {
        let owner = Owner()
        #expect(owner.addCarriedByCaller(1), "nobody carried: the caller must")
        #expect(!owner.addCarriedByCaller(2), "the caller already carries")
        _ = owner.add(3)
        #expect(!owner.hasCarrier, "no task while the caller carries")
        owner.carryAsCaller(jobs: 3)
        #expect(owner.doneJobs == [1, 2, 3])
        #expect(!owner.isCarried)
        _ = owner.add(4)
        let next = await waitUntil { owner.doneJobs == [1, 2, 3, 4] }
        #expect(next, "after the caller, the next add starts a carrier task")
    }

    @Test("a caller that stops early hands the jobs left to a carrier task, in order")
    func callerHandsOff() async {
        let owner = Owner()
        #expect(owner.addCarriedByCaller(1))
        _ = owner.add(2)
        _ = owner.add(3)
        owner.carryAsCaller(jobs: 1)
        #expect(owner.hasCarrier || owner.doneJobs.count == 3)
        let finished = await waitUntil { owner.doneJobs == [1, 2, 3] && !owner.isCarried }
        #expect(finished)
        owner.carryAsCaller(jobs: 0)
        #expect(!owner.hasCarrier, "a hand-off with nothing carried starts nothing")
    }
}

/// Polls `condition` for up to 10 s (SupportTests links no test harness).
private func waitUntil(_ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(10)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
