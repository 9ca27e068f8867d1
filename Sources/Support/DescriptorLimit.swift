import Glibc

/// The process's open-descriptor limit (`RLIMIT_NOFILE`).
///
/// A thousand TVs need more than a thousand sockets (each TV's HTTP connection, Samsung's
/// remote channel, the broker, SSDP), but most systems start a process with a soft limit of
/// 1024 and a much higher hard one. The soft limit is raised to the hard limit at
/// start; the hard limit itself is the administrator's (systemd `LimitNOFILE=`, Docker
/// `ulimit`).
public enum DescriptorLimit {
    public struct Outcome: Sendable, Equatable, CustomStringConvertible {
        /// The soft limit the process was started with.
        public var before: UInt64
        /// The soft limit now.
        public var soft: UInt64
        public var hard: UInt64
        /// Why the limit could not be read or raised; `nil` when all went well.
        public var failure: String?

        public var description: String {
            let change = before == soft ? "\(soft) (already the hard limit)" : "\(before) → \(soft)"
            return "open descriptor limit: soft \(change), hard \(Self.text(hard))"
        }

        static func text(_ value: UInt64) -> String { value == UInt64(rlim_t.max) ? "unlimited" : "\(value)" }
    }

    /// Raises the soft limit to the hard limit. Nothing is changed when they are already equal,
    /// so a service started with `LimitNOFILE=` (soft = hard) makes no `setrlimit` call at all,
    /// which a seccomp filter without `@resources` would refuse.
    public static func raiseToHard() -> Outcome {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else {
            return Outcome(before: 0, soft: 0, hard: 0, failure: "getrlimit: \(String(cString: strerror(errno)))")
        }
        var outcome = Outcome(
            before: UInt64(limit.rlim_cur), soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max), failure: nil)
        guard limit.rlim_cur < limit.rlim_max else { return outcome }
        var raised = limit
        raised.rlim_cur = limit.rlim_max
        if setrlimit(resource, &raised) == 0 {
            outcome.soft = UInt64(raised.rlim_cur)
        } else {
            outcome.failure = "setrlimit: \(String(cString: strerror(errno)))"
        }
        return outcome
    }
}
