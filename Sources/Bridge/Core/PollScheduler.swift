import Net
import Support
import Synchronization

/// When each TV is polled next, kept for all TVs in one place: one task sleeps until the
/// earliest poll is due and starts the polls that are. A TV between polls then
/// holds no task, and a fleet's thousands of waits are one timer instead of a timer each.
///
/// Entries are not removed when a TV is rescheduled earlier or stops: the agent keeps the
/// time it expects (`TVAgent.pollDue`) and ignores an entry that no longer matches it.
final class PollScheduler: Sendable {
    private struct Entry {
        let due: ContinuousClock.Instant
        let agent: TVAgent
    }

    /// Latest first, so the earliest is `removeLast()`.
    private let entries = Mutex<[Entry]>([])
    private let wakeup = Wakeup()

    init() {}

    /// Polls `agent` at `due` (it checks the entry is still its current one).
    func schedule(_ agent: TVAgent, at due: ContinuousClock.Instant) {
        let earliest = entries.withLock { entries -> Bool in
            // Binary search for the insertion point in the latest-first order.
            var low = 0
            var high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].due > due { low = middle + 1 } else { high = middle }
            }
            entries.insert(Entry(due: due, agent: agent), at: low)
            return low == entries.count - 1
        }
        if earliest { wakeup.signal() }
    }

    /// Starts the polls as they fall due, until the task is cancelled.
    func run() async {
        while !Task.isCancelled {
            let now = ContinuousClock.now
            let (due, next) = entries.withLock { entries -> ([Entry], ContinuousClock.Instant?) in
                var due: [Entry] = []
                while let last = entries.last, last.due <= now { due.append(entries.removeLast()) }
                return (due, entries.last?.due)
            }
            for entry in due { entry.agent.pollDue(entry.due) }
            let wait = next.map { now.duration(to: $0) } ?? .seconds(3600)
            if wait > .zero { _ = await wakeup.wait(timeout: wait) }
        }
    }
}
