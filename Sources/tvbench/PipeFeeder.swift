import Glibc

/// A pipe for a child's standard input that stays empty until `feed()`, which writes the bytes
/// from a thread of its own and then closes the pipe (the child sees the end of its input).
///
/// For timing a client that reads its messages from stdin (`mosquitto_pub -l`) from the moment
/// it is connected and waiting for input, as ours is timed from the moment it is connected.
/// The child opens the pipe by its /proc path (`inputPath`), as `ChildProcess` opens a file.
final class PipeFeeder: @unchecked Sendable {
    private let readFD: Int32
    private let writeFD: Int32
    private var bytes: [UInt8]

    init(_ bytes: [UInt8]) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw BenchError("cannot make a pipe: errno \(errno)") }
        // Neither end is inherited: the child opens its own by path, and only we may write.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        readFD = fds[0]
        writeFD = fds[1]
        self.bytes = bytes
    }

    /// What the child opens as its standard input.
    var inputPath: String { "/proc/\(getpid())/fd/\(readFD)" }

    /// Call once the child has started (it opened its own end by then).
    func closeReadEnd() { close(readFD) }

    /// Writes everything and closes the pipe, on a thread of its own: a blocking write of
    /// megabytes must not hold one of the few threads async tasks run on.
    func feed() {
        runOnDetachedThread { self.writeAll() }
    }

    private func writeAll() {
        var offset = 0
        bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let written = write(writeFD, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno != EINTR {
                    break  // the child went away; its exit status tells why
                }
            }
        }
        close(writeFD)
    }
}
