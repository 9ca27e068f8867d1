import Glibc
import Net
import Synchronization
import Wire

/// The record of what simulated TVs were asked to do: one JSON line per request that changes
/// something (or was refused), in the order the requests were handled.
///
/// Tests read it in memory (`entries`, `waitFor`); `tvsim` also writes each line to stdout or
/// a file, so a benchmark or a person can follow along. Several TVs may share one log.
public final class CommandLog: Sendable {
    /// Entries kept in memory at most; the oldest go first (a long benchmark run).
    public static let memoryLimit = 100_000

    private struct Waiter {
        let match: @Sendable (JSONValue) -> Bool
        let continuation: CheckedContinuation<JSONValue?, Never>
    }

    private struct State {
        var entries: [JSONValue] = []
        var dropped = 0
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())
    /// Where lines go: -1 = memory only, 1 = stdout, else an open file.
    private let descriptor: Int32
    /// Why the file given to `init(path:)` could not be opened (then the log is memory only).
    public let openError: String?

    /// - Parameter path: nil writes the lines to stdout; else they are appended to the file.
    public init(path: String?) {
        guard let path else {
            descriptor = 1
            openError = nil
            return
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        descriptor = fd
        openError = fd < 0 ? "cannot open \(path): \(String(cString: strerror(errno)))" : nil
    }

    private init(memoryOnly: Void) {
        descriptor = -1
        openError = nil
    }

    deinit {
        if descriptor > 2 { Glibc.close(descriptor) }
    }

    /// A log kept in memory only (tests).
    public static func memory() -> CommandLog { CommandLog(memoryOnly: ()) }

    /// Everything logged so far (the last `memoryLimit` entries).
    public var entries: [JSONValue] { state.withLock { $0.entries } }

    /// Adds one entry: kept in memory, written as one line, handed to waiters that match.
    public func append(_ entry: JSONValue) {
        let woken = state.withLock { state -> [CheckedContinuation<JSONValue?, Never>] in
            state.entries.append(entry)
            if state.entries.count > Self.memoryLimit {
                state.entries.removeFirst(state.entries.count - Self.memoryLimit)
            }
            if descriptor >= 0 {
                // Written under the lock so lines from several TVs never interleave.
                var line = entry.serializedBytes()
                line.append(UInt8(ascii: "\n"))
                line.withUnsafeBytes { buffer in
                    var offset = 0
                    while offset < buffer.count {
                        let written = Glibc.write(
                            descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                        if written < 0 && errno == EINTR { continue }
                        if written <= 0 { break }
                        offset += written
                    }
                }
            }
            var matched: [CheckedContinuation<JSONValue?, Never>] = []
            for (id, waiter) in state.waiters where waiter.match(entry) {
                matched.append(waiter.continuation)
                state.waiters.removeValue(forKey: id)
            }
            return matched
        }
        for continuation in woken { continuation.resume(returning: entry) }
    }

    /// The first entry that matches: one already logged, or the next to arrive within
    /// `timeout` (by default the tests' 30 s hang bound); nil when none did.
    public func waitFor(timeout: Duration = .seconds(30), _ match: @escaping @Sendable (JSONValue) -> Bool) async
        -> JSONValue?
    {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let timer = Task {
            try? await EventLoop.sleep(for: timeout, clock: .system)
            self.expire(id)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let found = state.withLock { state -> JSONValue?? in
                    if let existing = state.entries.first(where: match) { return .some(existing) }
                    state.waiters[id] = Waiter(match: match, continuation: continuation)
                    return .none
                }
                if let found { continuation.resume(returning: found) }
            }
        } onCancel: {
            expire(id)
        }
    }

    private func expire(_ id: Int) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
        waiter?.continuation.resume(returning: nil)
    }
}
