/// The project's serial queue: work waiting to be done in order (a TV's commands and driver
/// events, a remote channel's frames), and the task doing it while there is any: started by
/// the first `add`, ended by the `next` that finds the queue empty. Kept by its owner (in a
/// `Mutex`, or in an actor's state), so adding never waits.
///
/// An owner that has nothing to do holds no task for it: a task keeps a few KB of frames for as
/// long as it lives, and a fleet's TVs are idle nearly all the time.
public struct OnDemandQueue<Job: Sendable>: Sendable {
    private var waiting: [Job] = []
    public private(set) var carrier: Task<Void, Never>?

    public init() {}

    /// Queues `job` (false when `limit` jobs already wait; the one being done does not count),
    /// starting a carrier when none is running.
    public mutating func add(_ job: Job, limit: Int = .max, startCarrier: () -> Task<Void, Never>) -> Bool {
        guard waiting.count < limit else { return false }
        waiting.append(job)
        if carrier == nil { carrier = startCarrier() }
        return true
    }

    /// The oldest waiting job; nil ends the carrier (the next `add` starts another).
    public mutating func next() -> Job? {
        guard !waiting.isEmpty else {
            carrier = nil
            return nil
        }
        return waiting.removeFirst()
    }

    /// Drops the waiting jobs and cancels the carrier (an owner shutting down); the next `add`
    /// starts afresh.
    public mutating func cancelAll() {
        waiting.removeAll()
        carrier?.cancel()
        carrier = nil
    }
}
