import Glibc

/// The state directory, opened once per operation without following a symbolic link, and
/// every file in it reached relative to that descriptor (`openat`, `renameat`): a directory
/// swapped for a link after the checks cannot send a write elsewhere, and a link planted
/// under a file's name is refused (`O_NOFOLLOW`), never followed.
///
/// It must be its user's own and writable by nobody else: whoever can write it can plant
/// files the bridge would read (tokens, pins) or replace the state file.
final class StateDirectory {
    let path: String
    let fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    /// Opens `path` (creating it and its parents, mode 0700, when `create`); nil when it does
    /// not exist and `create` is false.
    static func open(_ path: String, create: Bool) throws(FileError) -> StateDirectory? {
        if create { try FileSystem.makeDirectory(path) }
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT && !create { return nil }
            if code == ELOOP || code == ENOTDIR {
                throw FileError(
                    path: path, operation: "use the state directory", code: code,
                    reason: "it is a symbolic link or not a directory; give the real directory (state_dir)")
            }
            throw FileError(path: path, operation: "open the state directory", code: code)
        }
        let directory = StateDirectory(path: path, fd: fd)
        try directory.checkOwnership()
        return directory
    }

    /// Refuses a directory another user owns or can write to.
    private func checkOwnership() throws(FileError) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError(path: path, operation: "stat", code: errno) }
        if info.st_uid != geteuid() {
            throw FileError(
                path: path, operation: "use the state directory", code: EPERM,
                reason:
                    "it is owned by uid \(info.st_uid), not by this user (uid \(geteuid())); chown it to this user or choose another state_dir"
            )
        }
        let mode = info.st_mode & 0o7777
        if mode & 0o022 != 0 {
            throw FileError(
                path: path, operation: "use the state directory", code: EPERM,
                reason:
                    "it is writable by group or others (mode \(String(mode, radix: 8))), so they could replace the state file; chmod 700 it"
            )
        }
    }

    /// Whether group or others may list or read the directory (the state file is 0600 anyway;
    /// older moved-aside files may not be).
    var isReadableByOthers: Bool {
        var info = stat()
        return fstat(fd, &info) == 0 && info.st_mode & 0o055 != 0
    }

    /// Makes the regular file `name` readable and writable by its owner only; a link or any
    /// other kind of file is left alone (never followed).
    func restrictToOwner(_ name: String) {
        let file = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return }
        defer { close(file) }
        var info = stat()
        if fstat(file, &info) == 0 && info.st_mode & S_IFMT == S_IFREG { fchmod(file, 0o600) }
    }

    /// Holds an exclusive lock on the directory until it is closed: the read-merge-write of
    /// every tv2mqtt process on this directory (a daemon, `tv2mqtt pair`) runs one at a time.
    func lock() throws(FileError) {
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR { throw FileError(path: path, operation: "lock", code: errno) }
        }
    }

    /// The stamp of `name`, nil when there is no such file.
    func stamp(_ name: String) -> FileStamp? {
        var info = stat()
        guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return FileStamp(info)
    }

    /// The whole regular file `name` and its stamp, or nil when it does not exist. A link, a
    /// FIFO or a file over `limit` bytes is an error (the caller moves it aside).
    func read(_ name: String, limit: Int) throws(FileError) -> (bytes: [UInt8], stamp: FileStamp)? {
        let file = path + "/" + name
        let fd = openat(self.fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw FileError(path: file, operation: "open", code: errno)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError(path: file, operation: "stat", code: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw FileError(path: file, operation: "read", code: EINVAL, reason: "not a regular file")
        }
        guard info.st_size <= limit else {
            throw FileError(
                path: file, operation: "read", code: EFBIG,
                reason: "\(info.st_size) bytes, over the \(limit)-byte limit")
        }
        return (try FileSystem.readAll(fd, path: file, limit: limit), FileStamp(info))
    }

    /// Replaces `name` atomically: a temporary file under a random name, created exclusively
    /// (`O_EXCL | O_NOFOLLOW`: nothing planted under that name is followed or reused), written,
    /// fchmod'ed, fsynced, renamed over `name`, then the directory fsynced. A crash at any
    /// instant leaves the old or the new file. Returns the new file's stamp.
    ///
    /// The contents come in `chunks`, so a large file need not be held whole in memory.
    func writeAtomically(
        _ name: String, chunks: some Sequence<[UInt8]>, mode: mode_t
    ) throws(FileError) -> FileStamp {
        let temporary = "\(name).tmp-\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
        let fd = openat(self.fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw FileError(path: path + "/" + temporary, operation: "create", code: errno) }
        func fail(_ operation: String, _ code: Int32) -> FileError {
            close(fd)
            unlinkat(self.fd, temporary, 0)
            return FileError(path: path + "/" + temporary, operation: operation, code: code)
        }
        var pending: [UInt8] = []
        for chunk in chunks {
            pending += chunk
            if pending.count >= Self.writeSize {
                if let code = Self.writeAll(pending, to: fd) { throw fail("write", code) }
                pending.removeAll(keepingCapacity: true)
            }
        }
        if let code = Self.writeAll(pending, to: fd) { throw fail("write", code) }
        // The umask may have narrowed or (0) left wider the mode given to openat.
        if fchmod(fd, mode) != 0 { throw fail("fchmod", errno) }
        if fsync(fd) != 0 { throw fail("fsync", errno) }
        var info = stat()
        if fstat(fd, &info) != 0 { throw fail("stat", errno) }
        close(fd)
        if renameat(self.fd, temporary, self.fd, name) != 0 {
            let code = errno
            unlinkat(self.fd, temporary, 0)
            throw FileError(path: path + "/" + name, operation: "rename over", code: code)
        }
        fsync(self.fd)  // makes the rename durable
        return FileStamp(info)
    }

    /// Chunks are gathered into writes of at least this many bytes (the last one aside).
    static let writeSize = 64 * 1024

    /// Writes all of `bytes`; the errno when a write fails.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }

    /// Renames `name` to `newName` in the directory.
    func rename(_ name: String, to newName: String) throws(FileError) {
        if renameat(fd, name, fd, newName) != 0 {
            throw FileError(path: path + "/" + name, operation: "rename", code: errno)
        }
    }

    func unlink(_ name: String) -> Bool { unlinkat(fd, name, 0) == 0 }

    /// The names in the directory (without `.` and `..`).
    func list() -> [String] {
        let copy = dup(fd)  // closedir closes the descriptor it was given
        guard copy >= 0 else { return [] }
        guard let directory = fdopendir(copy) else {
            close(copy)
            return []
        }
        defer { closedir(directory) }
        rewinddir(directory)
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
