/// The project's serial queue: work waiting to be done in order (a TV's commands and driver
/// events, a remote channel's frames), and the task doing it while there is any: started by
/// the first `add`, ended by the `next` that finds the queue empty. Kept by its owner (in a
/// `Mutex`, or in an actor's state), so adding never waits.
///
/// An owner that has nothing to do holds no task for it: a task keeps a few KB of frames for as
/// long as it lives, and a fleet's TVs are idle nearly all the time.
///
/// A caller that waits for its own job anyway may carry the queue itself (`addCarriedByCaller`):
/// the job is then done on the caller's task, with no hand-over to another.
public struct OnDemandQueue<Job: Sendable>: Sendable {
    private var waiting: [Job] = []
    public private(set) var carrier: Task<Void, Never>?
    /// Someone takes the jobs: the carrier task, or a caller that carries the queue itself.
    public private(set) var isCarried = false

    public init() {}

    public var isEmpty: Bool { waiting.isEmpty }

    /// Queues `job` (false when `limit` jobs already wait; the one being done does not count),
    /// starting a carrier when nobody carries the queue.
    public mutating func add(_ job: Job, limit: Int = .max, startCarrier: () -> Task<Void, Never>) -> Bool {
        guard waiting.count < limit else { return false }
        waiting.append(job)
        if !isCarried {
            isCarried = true
            carrier = startCarrier()
        }
        return true
    }

    /// Queues `job`; true when nobody carried the queue and the caller now does: it takes the
    /// jobs with `next()` until nil, or hands the rest to a task with `handOff`.
    public mutating func addCarriedByCaller(_ job: Job) -> Bool {
        waiting.append(job)
        guard !isCarried else { return false }
        isCarried = true
        return true
    }

    /// The oldest waiting job; nil ends the carrying (the next `add` starts another carrier).
    public mutating func next() -> Job? {
        guard !waiting.isEmpty else {
            isCarried = false
            carrier = nil
            return nil
        }
        return waiting.removeFirst()
    }

    /// A caller that carried the queue stops before it is empty: a carrier task takes the
    /// jobs left, so none waits for a caller that is gone.
    public mutating func handOff(startCarrier: () -> Task<Void, Never>) {
        guard isCarried, carrier == nil else { return }
        if waiting.isEmpty {
            isCarried = false
        } else {
            carrier = startCarrier()
        }
    }

    /// Drops the waiting jobs and cancels the carrier (an owner shutting down); the next `add`
    /// starts afresh.
    public mutating func cancelAll() {
        waiting.removeAll()
        carrier?.cancel()
        carrier = nil
        isCarried = false
    }
}
