import Glibc

/// Whole-file reads and writes with plain system calls (no Foundation needed).
public enum FileText {
    /// The file's bytes as UTF-8 text (invalid sequences repaired), or nil if it cannot be opened.
    public static func read(_ path: String) -> String? {
        bytes(path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The file's bytes, exactly as stored, or nil if it cannot be opened.
    public static func bytes(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[0..<count])
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        return bytes
    }

    /// Writes `contents` to `path`, replacing it; `mode` applies when the file is created.
    public static func write(_ contents: String, to path: String, mode: mode_t = 0o644) throws(HarnessError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .systemCall("open \(path)", errno: errno) }
        defer { close(fd) }
        try writeAll(fd, Array(contents.utf8), path: path)
    }

    /// Appends `contents` to `path`, creating it if needed.
    public static func append(_ contents: String, to path: String) throws(HarnessError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .systemCall("open \(path)", errno: errno) }
        defer { close(fd) }
        try writeAll(fd, Array(contents.utf8), path: path)
    }

    /// A new file in the temporary directory (`$TMPDIR` or `/tmp`), made with `mkstemp`.
    public static func makeTemporaryFile(prefix: String, contents: String) throws(HarnessError) -> String {
        var template = Array("\(TemporaryDirectory.systemTemporaryPath)/\(prefix)-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .systemCall("mkstemp", errno: errno) }
        defer { close(fd) }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        try writeAll(fd, Array(contents.utf8), path: path)
        return path
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(HarnessError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .systemCall("write \(path)", errno: errno)
            }
            offset += written
        }
    }
}
