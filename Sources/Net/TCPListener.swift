import CSystem
import Glibc

/// A listening TCP socket (simulated TVs, scripted brokers in tests).
public final class TCPListener: Sendable {
    let handle: SocketHandle
    public let address: SocketAddress

    private init(handle: SocketHandle, address: SocketAddress) {
        self.handle = handle
        self.address = address
    }

    /// Binds and listens. Port 0 picks a free port; read it back from `address.port`.
    public static func bind(
        host: String, port: UInt16, backlog: Int32 = 1024, loop: EventLoop = .shared
    ) throws(NetError) -> TCPListener {
        let requested = try SocketAddress(ip: host, port: port)
        let operation = "listen on \(requested)"
        let handle = try SocketHandle.make(
            family: requested.family, type: Int32(SOCK_STREAM.rawValue), loop: loop, operation: operation)
        handle.setOption(SOL_SOCKET, SO_REUSEADDR, 1)
        let (bound, bindCode) = try handle.call(operation) { fd in requested.withSockAddr { Glibc.bind(fd, $0, $1) } }
        if bound != 0 {
            handle.close()
            throw NetError.errno(bindCode, operation)
        }
        let (listening, listenCode) = try handle.call(operation) { Glibc.listen($0, backlog) }
        if listening != 0 {
            handle.close()
            throw NetError.errno(listenCode, operation)
        }
        return TCPListener(handle: handle, address: handle.localAddress ?? requested)
    }

    /// The next incoming connection.
    public func accept(deadline: ContinuousClock.Instant? = nil) async throws -> TCPConnection {
        let operation = "accept on \(address)"
        while true {
            let ((fd, peer), code) = try handle.call(operation) { listener -> (Int32, SocketAddress?) in
                var storage = sockaddr_storage()
                var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
                return withUnsafeMutablePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                        let fd = csys_accept(listener, raw, &length)
                        return (fd, fd >= 0 ? SocketAddress(raw) : nil)
                    }
                }
            }
            if fd >= 0 {
                let handle = try SocketHandle(fd, loop: self.handle.loop)
                return TCPConnection(handle: handle, remote: peer ?? address)
            }
            switch code {
            case EAGAIN, EWOULDBLOCK: try await handle.waitReadable(deadline: deadline, operation)
            case EINTR, ECONNABORTED, EPROTO: continue
            case EMFILE, ENFILE:
                // Out of descriptors: back off instead of spinning; the caller's connections will free some.
                try await EventLoop.sleep(for: .milliseconds(50))  // paced: out of descriptors; none to wait for
            default: throw NetError.errno(code, operation)
            }
        }
    }

    public func close() { handle.close() }
}
