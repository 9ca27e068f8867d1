import Glibc
import Harness
import Support
import TestSupport

/// `tv2mqtt run` as a process of its own, for the faults that need one: its descriptors are
/// counted in /proc/<pid>/fd (the test process opens sockets of its own all the time), and
/// it can be killed with SIGKILL.
enum FaultBridgeProcess {
    static let tv2mqtt = BuiltProducts.path("tv2mqtt")

    /// Starts `tv2mqtt run` with `arguments`, the test process's environment plus `environment`,
    /// its standard error captured (the log). `lowPriority` runs it under `nice -n 19` (same
    /// pid: nice execs it), for loops that start it again and again and must not take the CPU
    /// from the timing-sensitive tests running beside them.
    static func start(_ arguments: [String], environment: [String: String] = [:], lowPriority: Bool = false)
        async throws -> ChildProcess
    {
        let command = lowPriority ? ["-n", "19", tv2mqtt, "run"] : ["run"]
        return try await ChildProcess.spawn(
            lowPriority ? "nice" : tv2mqtt, command + arguments,
            environment: ProcessEnvironment.current().merging(environment) { $1 }, stdout: .discard, stderr: .capture)
    }

    /// The open descriptors of `pid` by kind ("socket", "anon_inode:[eventfd]", a path…).
    static func descriptors(of pid: pid_t) -> [String] {
        let directory = "/proc/\(pid)/fd"
        return FileSystemListing.names(directory).map { name in
            var buffer = [CChar](repeating: 0, count: 512)
            let count = readlink("\(directory)/\(name)", &buffer, buffer.count - 1)
            guard count > 0 else { return "?" }
            let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return target.hasPrefix("socket:") ? "socket" : target
        }
    }

    /// The fewest descriptors `pid` held over `samples` looks `interval` apart: a poll caught
    /// in the middle of its request holds one more for a moment; a leak is there every time.
    static func settledDescriptorCount(of pid: pid_t, samples: Int = 10, interval: Duration = .milliseconds(50))
        async -> (all: Int, sockets: Int)
    {
        var fewest = (all: Int.max, sockets: Int.max)
        for _ in 0..<samples {
            let kinds = descriptors(of: pid)
            fewest = (min(fewest.all, kinds.count), min(fewest.sockets, kinds.count { $0 == "socket" }))
            try? await Task.sleep(for: interval)
        }
        return fewest
    }

    /// The `Threads:` line of /proc/<pid>/status.
    static func threads(of pid: pid_t) -> Int? {
        guard let text = FileText.read("/proc/\(pid)/status") else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("Threads:") }
        return line.flatMap { Int($0.dropFirst("Threads:".count).filter(\.isNumber)) }
    }
}
