import Glibc
import Harness

/// What /proc says about one process: CPU time, memory, open descriptors. The bridge runs as a
/// child process precisely so these can be read without it measuring itself.
struct ProcessStats {
    /// User + system CPU time, in seconds.
    let cpuSeconds: Double
    /// Resident set size now (`VmRSS`), in MiB.
    let rssMB: Double
    /// Peak resident set size (`VmHWM`), in MiB.
    let peakRSSMB: Double
    /// Of `rssMB`: the heap and stacks (`RssAnon`), and the executable's and libraries' pages
    /// (`RssFile`), which say whether a change moved the heap or just the mapped code.
    let anonMB: Double
    let fileMB: Double
    /// "anon A MB + file F MB", for notes.
    var breakdown: String { "anon \(Report.format(anonMB)) MB + file \(Report.format(fileMB)) MB" }
    /// Entries in /proc/PID/fd.
    let openFDs: Int

    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// nil when the process is gone (or /proc is not readable).
    static func read(pid: pid_t) -> ProcessStats? {
        guard let stat = FileText.read("/proc/\(pid)/stat"), let status = FileText.read("/proc/\(pid)/status")
        else { return nil }
        // The command name (field 2) is in parentheses and may hold spaces: split after the last ')'.
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After ')': state is field 3, so utime (14) and stime (15) are at offsets 11 and 12.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return ProcessStats(
            cpuSeconds: (user + system) / ticksPerSecond, rssMB: kilobytes("VmRSS:", in: status) / 1024,
            peakRSSMB: kilobytes("VmHWM:", in: status) / 1024, anonMB: kilobytes("RssAnon:", in: status) / 1024,
            fileMB: kilobytes("RssFile:", in: status) / 1024, openFDs: countFDs(pid: pid))
    }

    private static func kilobytes(_ key: String, in status: String) -> Double {
        for line in status.split(separator: "\n") where line.hasPrefix(key) {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2, let value = Double(parts[1]) { return value }
        }
        return 0
    }

    private static func countFDs(pid: pid_t) -> Int {
        guard let directory = opendir("/proc/\(pid)/fd") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { count += 1 }
        }
        return count
    }
}

/// The machine's state, printed with every result: the figures mean little without the load.
enum MachineInfo {
    /// The three load averages of /proc/loadavg.
    static func loadAverage() -> [Double] {
        let text = FileText.read("/proc/loadavg") ?? ""
        return text.split(separator: " ").prefix(3).compactMap { Double($0) }
    }

    /// "Intel(R) Xeon(R) … × 2, 7.8 GiB": CPU model, online cores, memory.
    static func summary() -> String {
        let cpuinfo = FileText.read("/proc/cpuinfo") ?? ""
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: " \t") } ?? "unknown CPU"
        let cores = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        let memory = Double(sysconf(Int32(_SC_PHYS_PAGES))) * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_073_741_824
        return "\(model) × \(cores), \(Report.format(memory)) GiB"
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
