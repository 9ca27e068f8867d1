import Glibc

/// Everything the harness can fail with, each case carrying what a test author needs to see
/// (the command, its exit status, its error output, the broker's log).
public enum HarnessError: Error, Sendable, CustomStringConvertible {
    /// A bare executable name was not found on `PATH`, `/usr/local/sbin`, `/usr/sbin` or `/sbin`.
    case executableNotFound(name: String, searched: [String])
    /// A system call failed (`posix_spawn`, `mkdtemp`, `socket`, `pthread_create`…).
    case systemCall(String, errno: Int32)
    /// A command ran and ended unsuccessfully.
    case commandFailed(command: String, status: TerminationStatus, output: String)
    /// A command or a wait did not finish in time.
    case timedOut(what: String, after: Duration)
    /// The broker did not become ready; carries mosquitto's own log.
    case brokerDidNotStart(reason: String, log: String)
    /// A caller asked for something the current configuration cannot give (no TLS listener…).
    case invalidUse(String)

    public var description: String {
        switch self {
        case .executableNotFound(let name, let searched):
            return "executable '\(name)' not found in \(searched.joined(separator: ":"))"
        case .systemCall(let call, let code):
            return "\(call) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .commandFailed(let command, let status, let output):
            return "command failed (\(status)): \(command)\n\(output)"
        case .timedOut(let what, let after):
            return "\(what) did not finish within \(after)"
        case .brokerDidNotStart(let reason, let log):
            return "mosquitto did not start: \(reason)\n--- mosquitto log ---\n\(log)"
        case .invalidUse(let message):
            return message
        }
    }
}
