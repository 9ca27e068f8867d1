import Glibc
import Support

/// A TCP port nobody listens on right now: bind port 0, read back what the kernel chose, close.
///
/// Only for a port another process must be told in advance (mosquitto's configuration): there
/// is a window between closing and that process binding the port in which another socket can
/// take it, so its users retry with a new port on "address in use" (`MosquittoBroker`).
/// Sockets of this process bind port 0 and read back the port they got instead, and simulated
/// TVs sharing a UDP port hold it with `SharedUDPPort` (TVSimulators).
public enum FreePort {
    /// A free TCP port on `host` (an IPv4 or IPv6 literal).
    public static func tcp(host: String = "127.0.0.1") throws(HarnessError) -> UInt16 {
        try find(host: host, type: Int32(SOCK_STREAM.rawValue))
    }

    private static func find(host: String, type: Int32) throws(HarnessError) -> UInt16 {
        let address = try SocketAddress(host: host, port: 0)
        let fd = socket(address.family, type | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .systemCall("socket", errno: errno) }
        defer { close(fd) }
        guard address.withPointer({ bind(fd, $0, $1) }) == 0 else { throw .systemCall("bind \(host):0", errno: errno) }
        return try localPort(of: fd)
    }
}

/// The port a bound socket got (getsockname).
func localPort(of fd: Int32) throws(HarnessError) -> UInt16 {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let result = withUnsafeMutablePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard result == 0 else { throw .systemCall("getsockname", errno: errno) }
    // sin_port and sin6_port sit at the same offset, in network byte order.
    let port = withUnsafeBytes(of: &storage) { $0.load(fromByteOffset: 2, as: UInt16.self) }
    return UInt16(bigEndian: port)
}

/// An IPv4 or IPv6 literal and a port, as a `sockaddr` for `bind`/`connect`.
struct SocketAddress {
    private var storage = sockaddr_storage()
    private let length: socklen_t
    let family: Int32

    init(host: String, port: UInt16) throws(HarnessError) {
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            family = AF_INET
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutableBytes(of: &storage) { raw in withUnsafeBytes(of: v4) { raw.copyMemory(from: $0) } }
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            family = AF_INET6
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutableBytes(of: &storage) { raw in withUnsafeBytes(of: v6) { raw.copyMemory(from: $0) } }
        } else {
            throw .invalidUse("'\(host)' is not an IPv4 or IPv6 address literal")
        }
    }

    func withPointer<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafeBytes(of: storage) { body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self), length) }
    }
}

/// Whether a TCP connection to `host:port` is accepted right now (connect, then close at once).
/// Non-blocking connect bounded by `timeout`, so a dropped SYN cannot stall the caller.
func tcpAcceptsConnections(host: String, port: UInt16, timeout: Duration = .milliseconds(500)) -> Bool {
    guard let address = try? SocketAddress(host: host, port: port) else { return false }
    let fd = socket(
        address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    if address.withPointer({ connect(fd, $0, $1) }) == 0 { return true }
    guard errno == EINPROGRESS else { return false }
    var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
    let milliseconds = Int32(clamping: timeout.wholeMilliseconds)
    guard poll(&descriptor, 1, milliseconds) == 1 else { return false }
    var error: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
    return error == 0
}
