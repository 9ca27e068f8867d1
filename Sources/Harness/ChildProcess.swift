import Glibc
import Net

/// A child process started with `posix_spawn`, with an empty signal mask, default signal
/// dispositions, and its own process group (see `ProcessLauncher` for why).
///
/// A class rather than an actor: every operation is either a quick lock-protected step
/// (`signal`, `isRunning`) that callers want synchronously — including from `deinit` and
/// `defer` — or an `await` on the exit, which a continuation handles without an actor hop.
///
/// ```swift
/// let sleeper = try await ChildProcess.spawn("sleep", ["30"])
/// let status = await sleeper.terminate()   // .signaled(SIGTERM)
/// ```
///
/// Lifetime: when the last reference goes away while the child still runs, its process group is
/// sent `SIGKILL`, so a test that forgets to stop a child does not leak it. Children still alive
/// when the test process exits are killed by an `atexit` handler (`ChildRegistry`).
public final class ChildProcess: Sendable {
    /// Where the child's standard output or error goes.
    public enum Output: Sendable, Hashable {
        /// The test process's own descriptor.
        case inherit
        /// `/dev/null`.
        case discard
        /// Appended to this file (created if missing).
        case file(String)
        /// Into a temporary file, read back with `capturedOutput()` / `capturedError()`.
        case capture
    }

    /// Where the child's standard input comes from.
    public enum Input: Sendable, Hashable {
        /// `/dev/null` (the default: a child never steals the test runner's terminal).
        case null
        /// The test process's own standard input.
        case inherit
        /// Read from this file.
        case file(String)
        /// This text, through a temporary file.
        case text(String)
    }

    /// The child's process id; also its process group id.
    public let pid: pid_t
    /// The absolute path that was executed.
    public let executablePath: String
    public let arguments: [String]
    let state: ChildState
    /// Temporary files this object owns (captures, stdin text), removed on deinit.
    let stdoutCapture: String?
    let stderrCapture: String?
    let ownedFiles: [String]

    init(
        pid: pid_t, executablePath: String, arguments: [String], state: ChildState,
        stdoutCapture: String?, stderrCapture: String?, ownedFiles: [String]
    ) {
        self.pid = pid
        self.executablePath = executablePath
        self.arguments = arguments
        self.state = state
        self.stdoutCapture = stdoutCapture
        self.stderrCapture = stderrCapture
        self.ownedFiles = ownedFiles
    }

    deinit {
        _ = state.signal(SIGKILL, group: true)
        for file in ownedFiles { unlink(file) }
    }

    /// The command line, for messages.
    public var commandLine: String { ([executablePath] + arguments).joined(separator: " ") }

    /// `true` until the child has ended and been reaped.
    public var isRunning: Bool { state.status == nil }

    /// How the child ended, or nil while it runs.
    public var exitStatus: TerminationStatus? { state.status }

    /// Sends `signal` to the child alone. Returns `false` if it has already ended.
    @discardableResult
    public func signal(_ signal: Int32) -> Bool {
        state.signal(signal, group: false)
    }

    /// Sends `signal` to the child's whole process group (the child and whatever it started).
    /// Returns `false` if the child has already ended.
    @discardableResult
    public func signalGroup(_ signal: Int32) -> Bool {
        state.signal(signal, group: true)
    }

    /// Sends `SIGKILL` to the child's process group now; `await wait()` to see it end.
    public func kill() {
        signalGroup(SIGKILL)
    }

    /// Waits for the child to end. Not interrupted by task cancellation (a status must be
    /// returned); use `wait(timeout:)` or `terminate(grace:)` to bound the wait.
    public func wait() async -> TerminationStatus {
        // Non-cancellable waits only ever resume with a status.
        await state.wait(cancellable: false) ?? .signaled(SIGKILL)
    }

    /// Waits at most `timeout`; nil if the child still runs then, or if the task is cancelled.
    public func wait(timeout: Duration) async -> TerminationStatus? {
        if let status = state.status { return status }
        let state = self.state
        let status = await withDeadline(.now + timeout, clock: .system) { await state.wait(cancellable: true) } ?? nil
        return status ?? state.status
    }

    /// Stops the child: `SIGTERM` to its process group, then `SIGKILL` to the group if it has not
    /// ended after `grace`. Returns how it ended. In a cancelled task the grace is skipped.
    @discardableResult
    public func terminate(grace: Duration = .seconds(5)) async -> TerminationStatus {
        if let status = state.status { return status }
        signalGroup(SIGTERM)
        if let status = await wait(timeout: grace) { return status }
        signalGroup(SIGKILL)
        return await wait()
    }

    /// Standard output so far, when started with `stdout: .capture` ("" otherwise).
    public func capturedOutput() -> String {
        stdoutCapture.flatMap { FileText.read($0) } ?? ""
    }

    /// Standard error so far, when started with `stderr: .capture` ("" otherwise).
    public func capturedError() -> String {
        stderrCapture.flatMap { FileText.read($0) } ?? ""
    }

    /// Pids of children started by this process (through `ChildProcess`) not yet reaped.
    public static var livePIDs: Set<pid_t> { ChildRegistry.pids }
}
