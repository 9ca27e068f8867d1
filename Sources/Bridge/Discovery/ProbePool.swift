/// The one bounded pool of discovery probes (SSDP search answers and NOTIFY announcements
/// share it): at most `concurrency` probes at once, so a flood of answers or announcements
/// from spoofed sources costs at most that many sockets and tasks.
///
/// A search answer waits for a slot (`acquire`); an announcement only takes a free one
/// (`tryAcquire`) and is dropped otherwise: a real TV announces itself again, and the next
/// search finds it anyway.
actor ProbePool {
    let concurrency: Int
    private var running = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(concurrency: Int) {
        self.concurrency = concurrency
    }

    /// Probes running now (tests).
    var inUse: Int { running }

    /// Waits for a slot; pair with `release()`.
    func acquire() async {
        if running < concurrency {
            running += 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Takes a slot when one is free; pair a `true` with `release()`.
    func tryAcquire() -> Bool {
        guard running < concurrency else { return false }
        running += 1
        return true
    }

    /// Gives a slot back (to the longest waiting search, if any).
    func release() {
        if waiters.isEmpty {
            running = max(0, running - 1)
        } else {
            waiters.removeFirst().resume()
        }
    }
}
