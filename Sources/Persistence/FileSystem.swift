import Glibc

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
        return try readAll(fd, path: path, limit: limit)
    }

    /// Reads `fd` to its end; more than `limit` bytes is an error.
    static func readAll(_ fd: Int32, path: String, limit: Int) throws(FileError) -> [UInt8] {
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
}
