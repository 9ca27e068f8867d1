import Glibc
import Synchronization

/// Watches a log file for one of some lines, from a thread of its own, and notes when one
/// appeared (within about a millisecond).
///
/// A thread, not an async poll: a 1 ms `Task.sleep` loop costs a timer and a thread wake-up
/// each time, CPU taken from the clients being timed, and more from ours (same process) than
/// from a `mosquitto_pub`. Here a poll is a `nanosleep` and an `fstat` until the file grows.
final class LogLineWatcher: @unchecked Sendable {
    private let path: String
    private let lines: [String]
    private let deadline: ContinuousClock.Instant
    private let outcome = Mutex<Outcome>(Outcome())
    private let stopped = Atomic<Bool>(false)

    private struct Outcome {
        var done = false
        /// When a line appeared; nil when the deadline came first (or the file never existed).
        var seenAt: ContinuousClock.Instant?
        var waiter: CheckedContinuation<ContinuousClock.Instant?, Never>?
    }

    /// Starts watching `path` for any of `lines`, for at most `timeout`.
    init(path: String, lines: [String], timeout: Duration) {
        self.path = path
        self.lines = lines
        deadline = .now + timeout
        runOnDetachedThread { self.finish(seenAt: self.watch()) }
    }

    /// When one of the lines appeared; nil if none did before the timeout.
    func seen() async -> ContinuousClock.Instant? {
        await withCheckedContinuation { continuation in
            let ready = outcome.withLock { state -> ContinuousClock.Instant?? in
                if state.done { return .some(state.seenAt) }
                state.waiter = continuation
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Ends the watch now (the client failed): `seen()` returns nil unless a line was seen.
    func stop() { stopped.store(true, ordering: .relaxed) }

    private func finish(seenAt: ContinuousClock.Instant?) {
        let waiter = outcome.withLock { state in
            state.done = true
            state.seenAt = seenAt
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: seenAt)
    }

    private func watch() -> ContinuousClock.Instant? {
        var text: [UInt8] = []
        var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
        let needles = lines.map { Array($0.utf8) }
        func goingOn() -> Bool { ContinuousClock.now < deadline && !stopped.load(ordering: .relaxed) }
        while goingOn() {
            let fd = open(path, O_RDONLY)
            if fd >= 0 {
                defer { close(fd) }
                while goingOn() {
                    var info = stat()
                    if fstat(fd, &info) == 0 && Int(info.st_size) > text.count {
                        var chunk = [UInt8](repeating: 0, count: Int(info.st_size) - text.count)
                        let count = pread(fd, &chunk, chunk.count, off_t(text.count))
                        if count > 0 { text += chunk[0..<count] }
                        let now = ContinuousClock.now
                        if needles.contains(where: { contains(text, $0) }) { return now }
                    }
                    nanosleep(&pause, nil)
                }
            }
            nanosleep(&pause, nil)
        }
        return nil
    }

    private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }
}
