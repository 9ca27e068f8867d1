/// A deadline on the loop: a waiter's timeout, a job to run, or a callback (a sleep's end, a
/// `Wakeup`'s timeout). Timeouts whose waiter already finished stay in the heap until they
/// expire and are then skipped (lazy deletion keeps every operation O(log n)); so do callbacks,
/// which check for themselves whether they still matter.
struct Timer {
    enum Action {
        case expire(token: UInt64, direction: EventLoop.Direction, waiterID: UInt64)
        /// A Swift job that asked for the global executor after a delay.
        case run(SwiftJob)
        /// Called on the loop's thread, outside its lock (`EventLoop.schedule`).
        case call(@Sendable () -> Void)
    }

    let deadline: ContinuousClock.Instant
    let action: Action
}

/// A job the Swift runtime handed to the loop (`EventLoop.becomeGlobalExecutor`). It is run
/// exactly once, on the loop's thread; until then only the loop's lock touches it.
struct SwiftJob: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
}

/// A binary min-heap of timers ordered by deadline.
struct TimerHeap {
    private var items: [Timer] = []

    var top: Timer? { items.first }
    var count: Int { items.count }

    mutating func push(_ timer: Timer) {
        items.append(timer)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].deadline < items[parent].deadline else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    @discardableResult
    mutating func pop() -> Timer? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let popped = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < items.count && items[left].deadline < items[smallest].deadline { smallest = left }
            if right < items.count && items[right].deadline < items[smallest].deadline { smallest = right }
            if smallest == parent { break }
            items.swapAt(parent, smallest)
            parent = smallest
        }
        return popped
    }
}
