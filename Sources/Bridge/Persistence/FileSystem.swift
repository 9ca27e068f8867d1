import Glibc

/// Why a file operation failed, with the path and the system's reason.
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    public let path: String
    public let operation: String
    public let code: Int32

    public var description: String { "cannot \(operation) \(path): \(String(cString: strerror(code)))" }
}

/// The few file operations the bridge needs, over plain system calls.
public enum FileSystem {
    /// The whole file, or nil when it does not exist.
    public static func read(_ path: String, limit: Int = 16 << 20) throws(FileError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw FileError(path: path, operation: "open", code: errno)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, operation: "read", code: errno)
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            if bytes.count > limit { throw FileError(path: path, operation: "read (file too large)", code: EFBIG) }
        }
    }

    /// Replaces `path` atomically: writes a temporary file beside it, fsyncs it, renames it over
    /// `path`, then fsyncs the directory. A crash at any instant leaves the old or the new file.
    public static func writeAtomically(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o600) throws(FileError) {
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw FileError(path: temporary, operation: "create", code: errno) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(fd)
                unlink(temporary)
                throw FileError(path: temporary, operation: "write", code: code)
            }
            offset += written
        }
        fchmod(fd, mode)  // an older temporary file may have had another mode
        if fsync(fd) != 0 {
            let code = errno
            close(fd)
            unlink(temporary)
            throw FileError(path: temporary, operation: "fsync", code: code)
        }
        close(fd)
        if Glibc.rename(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            throw FileError(path: path, operation: "rename over", code: code)
        }
        syncDirectory(of: path)
    }

    /// Makes a rename durable: fsync of the directory that holds `path`.
    static func syncDirectory(of path: String) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let fd = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }

    /// Creates `path` and its parents (mode 0700 for new ones).
    public static func makeDirectory(_ path: String) throws(FileError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/\(part)"
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw FileError(path: current, operation: "create directory", code: errno)
            }
        }
    }

    /// Whether a file can be created in the directory `path` (creating the directory if needed).
    public static func isWritableDirectory(_ path: String) -> Bool {
        guard (try? makeDirectory(path)) != nil else { return false }
        return access(path, W_OK | X_OK) == 0
    }

    /// The names in directory `path` (without `.` and `..`); empty when it cannot be read.
    public static func list(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    public static func rename(_ from: String, to: String) throws(FileError) {
        if Glibc.rename(from, to) != 0 { throw FileError(path: from, operation: "rename", code: errno) }
    }
}
