import Glibc
import Synchronization

/// A non-blocking socket registered with the event loop.
///
/// System calls run under a small lock that also guards `close`, so a call can never reach
/// a descriptor number that was closed and reused by another socket. The calls are
/// non-blocking, so the lock is held for microseconds.
final class SocketHandle: Sendable {
    private let fd: Mutex<Int32>
    private let token: UInt64
    let loop: EventLoop

    /// Takes ownership of `descriptor`: makes it non-blocking and registers it.
    init(_ descriptor: Int32, loop: EventLoop) throws(NetError) {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw NetError.errno(code, "configure socket")
        }
        do {
            token = try loop.register(descriptor)
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        fd = Mutex(descriptor)
        self.loop = loop
    }

    /// Creates a socket of the given family and type (close-on-exec).
    static func make(family: Int32, type: Int32, loop: EventLoop, operation: String) throws(NetError) -> SocketHandle {
        let descriptor = socket(family, type | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw NetError.errno(errno, operation) }
        return try SocketHandle(descriptor, loop: loop)
    }

    var isClosed: Bool { fd.withLock { $0 < 0 } }

    /// Runs a system call on the descriptor. Returns the call's result and errno;
    /// fails with `.closed` when the socket was closed.
    func call<R>(_ operation: @autoclosure () -> String, _ body: (Int32) -> R) throws(NetError) -> (R, Int32) {
        let result: (R, Int32)? = fd.withLock { descriptor in
            guard descriptor >= 0 else { return nil }
            errno = 0
            let value = body(descriptor)
            return (value, errno)
        }
        guard let result else { throw NetError(.closed, operation(), "socket is closed") }
        return result
    }

    func waitReadable(deadline: ContinuousClock.Instant?, _ operation: @autoclosure () -> String) async throws {
        try await loop.wait(token, .read, deadline: deadline, operation: operation())
    }

    func waitWritable(deadline: ContinuousClock.Instant?, _ operation: @autoclosure () -> String) async throws {
        try await loop.wait(token, .write, deadline: deadline, operation: operation())
    }

    func setOption(_ level: Int32, _ name: Int32, _ value: Int32) {
        _ = try? call("set option") { descriptor in
            var option = value
            return setsockopt(descriptor, level, name, &option, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    /// The local address the socket is bound to.
    var localAddress: SocketAddress? {
        (try? call("getsockname") { descriptor -> SocketAddress? in
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            return withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                    getsockname(descriptor, raw, &length) == 0 ? SocketAddress(raw) : nil
                }
            }
        })?.0
    }

    /// Fails waiting tasks with `.closed` and closes the descriptor. Idempotent.
    func close() {
        fd.withLock { descriptor in
            guard descriptor >= 0 else { return }
            loop.deregister(token, fd: descriptor)
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    deinit { close() }
}
