import Glibc
import Support

/// A TCP connection on the event loop.
public final class TCPConnection: ByteStream {
    let handle: SocketHandle
    public let remote: SocketAddress
    private let writeLock = AsyncLock()

    init(handle: SocketHandle, remote: SocketAddress) {
        self.handle = handle
        self.remote = remote
        handle.setOption(Int32(IPPROTO_TCP), TCP_NODELAY, 1)  // commands are small and latency-bound
    }

    /// Connects to `address`, failing with `.timedOut` after `timeout`.
    ///
    /// - Parameter local: the address to connect from (port 0: any); nil lets the kernel choose.
    ///   A simulated TV on `127.0.0.3` sends its UPnP events from there, as a real TV would from its own.
    public static func connect(
        to address: SocketAddress, from local: SocketAddress? = nil, timeout: Duration = .seconds(3),
        loop: EventLoop = .shared
    ) async throws -> TCPConnection {
        let operation = "connect to \(address)"
        let handle = try SocketHandle.make(
            family: address.family, type: Int32(SOCK_STREAM.rawValue), loop: loop, operation: operation)
        do {
            if let local {
                let (bound, code) = try handle.call(operation) { fd in
                    local.withSockAddr { Glibc.bind(fd, $0, $1) }
                }
                if bound != 0 { throw NetError.errno(code, operation) }
            }
            let (result, code) = try handle.call(operation) { fd in
                address.withSockAddr { Glibc.connect(fd, $0, $1) }
            }
            if result != 0 {
                guard code == EINPROGRESS else { throw NetError.errno(code, operation) }
                try await handle.waitWritable(deadline: LoopClock.current.now + timeout, operation)
                let (pending, _) = try handle.call(operation) { fd -> Int32 in
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                    return error
                }
                if pending != 0 { throw NetError.errno(pending, operation) }
            }
            return TCPConnection(handle: handle, remote: address)
        } catch {
            handle.close()
            if let netError = error as? NetError, netError.kind == .timedOut {
                throw NetError(.timedOut, operation, "no answer within \(timeout)")
            }
            throw error
        }
    }

    /// Resolves `host` and connects to the first address that answers.
    public static func connect(
        host: String, port: UInt16, timeout: Duration = .seconds(3), loop: EventLoop = .shared
    ) async throws -> TCPConnection {
        var lastError: any Error = NetError(.badAddress, "connect to \(host):\(port)", "no addresses")
        for address in try await Resolver.resolve(host, port: port) {
            do {
                return try await connect(to: address, timeout: timeout, loop: loop)
            } catch let error as CancellationError {
                throw error
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    public var peerDescription: String { remote.description }
    public var isClosed: Bool { handle.isClosed }
    public var localAddress: SocketAddress? { handle.localAddress }

    public func read(maxBytes: Int, deadline: ContinuousClock.Instant?) async throws -> [UInt8] {
        let size = max(1, min(maxBytes, 256 * 1024))
        while true {
            let (bytes, code) = try handle.call("read from \(remote)") { fd -> [UInt8]? in
                // Read into scratch space on the stack, then copy out exactly what arrived:
                // no per-connection buffer sits idle between reads.
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: min(size, 16 * 1024)) { scratch in
                    let count = Glibc.read(fd, scratch.baseAddress, scratch.count)
                    return count >= 0 ? Array(scratch[0..<count]) : nil
                }
            }
            if let bytes { return bytes }
            switch code {
            case EAGAIN, EWOULDBLOCK:
                try await handle.waitReadable(deadline: deadline, "read from \(remote)")
            case EINTR: continue
            default: throw NetError.errno(code, "read from \(remote)")
            }
        }
    }

    public func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant?) async throws {
        await writeLock.lock()
        defer { writeLock.unlock() }
        var offset = 0
        Trace.mark(.socketWrite)
        while offset < bytes.count {
            let (written, code) = try handle.call("write to \(remote)") { fd in
                bytes.withUnsafeBytes { buffer in
                    send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                }
            }
            if written > 0 {
                offset += written
                continue
            }
            switch code {
            case EAGAIN, EWOULDBLOCK:
                try await handle.waitWritable(deadline: deadline, "write to \(remote)")
            case EINTR: continue
            default: throw NetError.errno(code, "write to \(remote)")
            }
        }
    }

    /// Half-closes: the peer sees end of stream; we can still read.
    public func shutdownWrite() {
        _ = try? handle.call("shutdown") { Glibc.shutdown($0, Int32(SHUT_WR)) }
    }

    public func close() { handle.close() }
}

extension TCPConnection {
    /// Best effort: writes what the socket accepts right now, without waiting (a TLS
    /// close_notify on the way out).
    func trySendNow(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        _ = try? handle.call("write to \(remote)") { fd in
            bytes.withUnsafeBytes {
                send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
        }
    }
}

extension TCPConnection {
    /// Whether the peer has already closed (or reset) the connection, without waiting: an
    /// idle kept-alive connection a server timed out shows a pending end of stream.
    public var isPeerClosed: Bool {
        guard
            let (result, code) = try? handle.call(
                "peek",
                { fd -> Int in
                    var byte: UInt8 = 0
                    return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
                })
        else { return true }
        if result == 0 { return true }
        return result < 0 && code != EAGAIN && code != EWOULDBLOCK
    }
}
