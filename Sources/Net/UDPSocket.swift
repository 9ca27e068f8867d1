import Glibc

/// A UDP socket on the event loop: SSDP search and NOTIFY listening, Wake-on-LAN.
public final class UDPSocket: Sendable {
    let handle: SocketHandle
    /// The address the socket is bound to (with the port the kernel picked for port 0).
    public let localAddress: SocketAddress

    private init(handle: SocketHandle, localAddress: SocketAddress) {
        self.handle = handle
        self.localAddress = localAddress
    }

    /// Binds to `host:port` (port 0 = any free port). `reuse` sets SO_REUSEADDR and
    /// SO_REUSEPORT so several listeners (a TV's responder, the bridge) can share port 1900.
    ///
    /// With port 0 and `reuse`, the options are set after the bind: Linux, picking a port for a
    /// socket that already has SO_REUSEADDR, passes over only the ports it would conflict with,
    /// so it can hand out a port another reusing socket holds, and the two then share (or split)
    /// each other's datagrams. Bound plain, the socket gets a port nobody holds; set afterwards,
    /// the options still let other sockets join it.
    public static func bind(
        host: String = "0.0.0.0", port: UInt16 = 0, reuse: Bool = false, loop: EventLoop = .shared
    ) throws(NetError) -> UDPSocket {
        let requested = try SocketAddress(ip: host, port: port)
        let operation = "bind UDP \(requested)"
        let handle = try SocketHandle.make(
            family: requested.family, type: Int32(SOCK_DGRAM.rawValue), loop: loop, operation: operation)
        let allowSharing = {
            handle.setOption(SOL_SOCKET, SO_REUSEADDR, 1)
            handle.setOption(SOL_SOCKET, SO_REUSEPORT, 1)
        }
        if reuse && port != 0 { allowSharing() }
        let (result, code) = try handle.call(operation) { fd in requested.withSockAddr { Glibc.bind(fd, $0, $1) } }
        if result != 0 {
            handle.close()
            throw NetError.errno(code, operation)
        }
        if reuse && port == 0 { allowSharing() }
        return UDPSocket(handle: handle, localAddress: handle.localAddress ?? requested)
    }

    /// Allows sending to broadcast addresses (Wake-on-LAN to 255.255.255.255 or a subnet's .255).
    public func enableBroadcast() {
        handle.setOption(SOL_SOCKET, SO_BROADCAST, 1)
    }

    /// Asks for a receive buffer of `bytes` (SO_RCVBUF; the kernel doubles it for its own
    /// bookkeeping and caps it at net.core.rmem_max). An SSDP search of a large network gets
    /// hundreds of answers within MX seconds; the default (about 200 KB, some 150 loopback
    /// datagrams) drops answers whenever the reader falls behind for a moment.
    public func setReceiveBufferSize(_ bytes: Int32) {
        handle.setOption(SOL_SOCKET, SO_RCVBUF, bytes)
    }

    /// The receive buffer the kernel granted (SO_RCVBUF as read back), in bytes.
    public var receiveBufferSize: Int32 {
        let result = try? handle.call("get SO_RCVBUF") { descriptor -> Int32 in
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &value, &length) == 0 ? value : 0
        }
        return result?.0 ?? 0
    }

    /// Joins an IPv4 multicast group (SSDP: 239.255.255.250) on one interface, named by
    /// its IPv4 address ("192.168.1.10") or its name ("eth0"); nil lets the kernel choose.
    public func joinMulticast(group: String, interface: String? = nil) throws(NetError) {
        let operation = "join multicast \(group)"
        var request = ip_mreqn()
        guard inet_pton(AF_INET, group, &request.imr_multiaddr) == 1 else {
            throw NetError(.badAddress, operation, "'\(group)' is not an IPv4 multicast address")
        }
        try Self.select(interface: interface, into: &request, operation: operation)
        let (result, code) = try handle.call(operation) { fd in
            setsockopt(fd, Int32(IPPROTO_IP), IP_ADD_MEMBERSHIP, &request, socklen_t(MemoryLayout<ip_mreqn>.size))
        }
        if result != 0 { throw NetError.errno(code, operation) }
    }

    /// Chooses the interface outgoing multicast leaves from, and its TTL (SSDP uses 2–4).
    public func setMulticastInterface(_ interface: String?, ttl: Int32 = 2, loopback: Bool = true) throws(NetError) {
        let operation = "set multicast interface"
        var request = ip_mreqn()
        try Self.select(interface: interface, into: &request, operation: operation)
        let (result, code) = try handle.call(operation) { fd in
            setsockopt(fd, Int32(IPPROTO_IP), IP_MULTICAST_IF, &request, socklen_t(MemoryLayout<ip_mreqn>.size))
        }
        if result != 0 { throw NetError.errno(code, operation) }
        handle.setOption(Int32(IPPROTO_IP), IP_MULTICAST_TTL, ttl)
        handle.setOption(Int32(IPPROTO_IP), IP_MULTICAST_LOOP, loopback ? 1 : 0)
    }

    private static func select(interface: String?, into request: inout ip_mreqn, operation: String) throws(NetError) {
        guard let interface, !interface.isEmpty else { return }
        if inet_pton(AF_INET, interface, &request.imr_address) == 1 { return }
        let index = if_nametoindex(interface)
        guard index != 0 else { throw NetError(.badAddress, operation, "no interface named '\(interface)'") }
        request.imr_ifindex = Int32(index)
    }

    /// Sends one datagram.
    public func send(_ bytes: [UInt8], to address: SocketAddress, deadline: ContinuousClock.Instant? = nil)
        async throws
    {
        let operation = "send UDP to \(address)"
        while true {
            let (sent, code) = try handle.call(operation) { fd in
                bytes.withUnsafeBytes { buffer in
                    address.withSockAddr { Glibc.sendto(fd, buffer.baseAddress, buffer.count, 0, $0, $1) }
                }
            }
            if sent >= 0 { return }
            switch code {
            case EAGAIN, EWOULDBLOCK: try await handle.waitWritable(deadline: deadline, operation)
            case EINTR: continue
            default: throw NetError.errno(code, operation)
            }
        }
    }

    /// The next datagram and who sent it. Datagrams longer than `maxBytes` are truncated.
    public func receive(maxBytes: Int = 8192, deadline: ContinuousClock.Instant? = nil) async throws -> (
        bytes: [UInt8], from: SocketAddress
    ) {
        let operation = "receive UDP on \(localAddress)"
        while true {
            let (datagram, code) = try handle.call(operation) { fd -> ([UInt8], SocketAddress)? in
                var storage = sockaddr_storage()
                var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
                return withUnsafeMutablePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, maxBytes)) { scratch in
                            let count = recvfrom(fd, scratch.baseAddress, scratch.count, 0, raw, &length)
                            guard count >= 0, let sender = SocketAddress(raw) else { return nil }
                            return (Array(scratch[0..<count]), sender)
                        }
                    }
                }
            }
            if let datagram { return datagram }
            switch code {
            case EAGAIN, EWOULDBLOCK, 0: try await handle.waitReadable(deadline: deadline, operation)
            case EINTR, ECONNREFUSED: continue  // ICMP port unreachable from an earlier send
            default: throw NetError.errno(code, operation)
            }
        }
    }

    public func close() { handle.close() }
}
