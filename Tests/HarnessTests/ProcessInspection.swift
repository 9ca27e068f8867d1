import Glibc
import Harness

/// Looks at processes through /proc, to check what the harness claims about its children.
enum ProcessInspection {
    /// A field of /proc/<pid>/status (`SigBlk`, `SigIgn`, `State`…), nil if the process is gone.
    static func statusField(_ name: String, pid: pid_t) -> String? {
        guard let text = FileText.read("/proc/\(pid)/status") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return line.dropFirst(name.count + 1).trimmingCharacters(in: " \t")
        }
        return nil
    }

    /// A `SigBlk`/`SigIgn` style hexadecimal mask as a number.
    static func mask(_ name: String, pid: pid_t) -> UInt64? {
        statusField(name, pid: pid).flatMap { UInt64($0, radix: 16) }
    }

    /// The running program's name (`/proc/<pid>/comm`).
    static func command(pid: pid_t) -> String? {
        FileText.read("/proc/\(pid)/comm")?.trimmingCharacters(in: "\n")
    }

    /// True while `pid` exists and is not a zombie.
    static func isAlive(_ pid: pid_t) -> Bool {
        guard let state = statusField("State", pid: pid) else { return false }
        return !state.hasPrefix("Z") && !state.hasPrefix("X")
    }

    /// Processes of group `pgid` that are alive (zombies waiting for init to reap them excluded).
    static func liveGroupMembers(_ pgid: pid_t) -> [pid_t] {
        processes().filter { $0.pgid == pgid && $0.state != "Z" && $0.state != "X" }.map(\.pid)
    }

    /// Pids whose parent is this test process (what `pgrep -P <our pid>` lists), zombies included.
    static func childrenOfThisProcess() -> Set<pid_t> {
        let me = getpid()
        return Set(processes().filter { $0.ppid == me }.map(\.pid))
    }

    /// Every process in /proc with its state, parent and process group (from /proc/<pid>/stat).
    static func processes() -> [(pid: pid_t, state: String, ppid: pid_t, pgid: pid_t)] {
        var result: [(pid: pid_t, state: String, ppid: pid_t, pgid: pid_t)] = []
        guard let directory = opendir("/proc") else { return result }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let pid = pid_t(name), let stat = FileText.read("/proc/\(pid)/stat") else { continue }
            // After the parenthesised command come: state, ppid, pgrp, …
            guard let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, let ppid = pid_t(fields[1]), let pgid = pid_t(fields[2]) else { continue }
            result.append((pid, String(fields[0]), ppid, pgid))
        }
        return result
    }

    /// Those of `pids` still our children (`pgrep -P`) or in the harness's live registry.
    static func leaked(_ pids: [pid_t]) -> [pid_t] {
        let children = childrenOfThisProcess()
        let live = ChildProcess.livePIDs
        return pids.filter { children.contains($0) || live.contains($0) }
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
