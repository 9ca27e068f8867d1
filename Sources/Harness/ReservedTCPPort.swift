import Glibc
import Synchronization

/// A TCP port bound but not listening, held until `release()`: connections to it are refused
/// (the kernel answers RST), and no socket without SO_REUSEADDR can be given it meanwhile.
/// A listener that sets SO_REUSEADDR (TCPListener, the simulated TVs) can bind it while it is
/// held: a test's "refused now, answering later" TV without a port picked, released and bound
/// again later, which another socket can take in between (see `FreePort`).
public final class ReservedTCPPort: Sendable {
    public let host: String
    public let port: UInt16
    private let descriptor: Mutex<Int32>

    /// Binds `host:0` (an IPv4 or IPv6 literal) with SO_REUSEADDR.
    public init(host: String = "127.0.0.1") throws(HarnessError) {
        let address = try SocketAddress(host: host, port: 0)
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .systemCall("socket", errno: errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard address.withPointer({ bind(fd, $0, $1) }) == 0 else {
            let code = errno
            close(fd)
            throw .systemCall("bind \(host):0", errno: code)
        }
        let port: UInt16
        do {
            port = try localPort(of: fd)
        } catch {
            close(fd)
            throw error
        }
        self.host = host
        self.port = port
        descriptor = Mutex(fd)
    }

    /// Gives the port up; harmless when already released.
    public func release() {
        descriptor.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = -1
        }
    }

    deinit { release() }
}
