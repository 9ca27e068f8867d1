/// Work for one TV waiting to be done in order (commands, the driver's events), and the task
/// doing it while there is any: started by the first `add`, ended by the `next` that finds the
/// queue empty. Kept in a `Mutex` by its owner, so adding never waits.
///
/// A TV that has nothing to do holds no task for it: a task keeps a few KB of frames for as
/// long as it lives, and a fleet's TVs are idle nearly all the time.
struct OnDemandQueue<Job: Sendable> {
    private var waiting: [Job] = []
    private(set) var carrier: Task<Void, Never>?

    /// Queues `job` (false when `limit` jobs already wait; the one being done does not count),
    /// starting a carrier when none is running.
    mutating func add(_ job: Job, limit: Int = .max, startCarrier: () -> Task<Void, Never>) -> Bool {
        guard waiting.count < limit else { return false }
        waiting.append(job)
        if carrier == nil { carrier = startCarrier() }
        return true
    }

    /// The oldest waiting job; nil ends the carrier (the next `add` starts another).
    mutating func next() -> Job? {
        guard !waiting.isEmpty else {
            carrier = nil
            return nil
        }
        return waiting.removeFirst()
    }
}
