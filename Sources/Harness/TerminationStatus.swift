/// How a child process ended, decoded from a `waitpid` status word.
public enum TerminationStatus: Sendable, Hashable, CustomStringConvertible {
    /// The process called `exit(code)` (or returned from `main`).
    case exited(Int32)
    /// The process was ended by a signal (`SIGTERM` = 15, `SIGKILL` = 9…).
    case signaled(Int32)

    /// `true` for `exit(0)` only.
    public var isSuccess: Bool { self == .exited(0) }

    /// Decodes a status word as `WIFEXITED`/`WEXITSTATUS`/`WTERMSIG` do (Linux layout: the low
    /// 7 bits are the terminating signal, 0 for a normal exit; bits 8–15 the exit code). Swift
    /// cannot call those function-like macros.
    init(waitStatus status: Int32) {
        let signal = status & 0x7F
        self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }

    public var description: String {
        switch self {
        case .exited(let code): return "exit code \(code)"
        case .signaled(let signal): return "signal \(signal)"
        }
    }
}
