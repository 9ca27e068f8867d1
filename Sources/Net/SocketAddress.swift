import Glibc

/// An IPv4 or IPv6 address with a port.
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
    enum Storage: Hashable, Sendable {
        case v4(address: UInt32, port: UInt16)  // both in host order
        case v6(address: [UInt8], port: UInt16, scope: UInt32)
    }

    let storage: Storage

    /// A numeric address: "127.0.0.2", "::1", "fe80::1%eth0". No name resolution.
    public init(ip: String, port: UInt16) throws(NetError) {
        var v4 = in_addr()
        if inet_pton(AF_INET, ip, &v4) == 1 {
            storage = .v4(address: UInt32(bigEndian: v4.s_addr), port: port)
            return
        }
        let parts = ip.split(separator: "%", maxSplits: 1)
        var v6 = in6_addr()
        guard let first = parts.first, inet_pton(AF_INET6, String(first), &v6) == 1 else {
            throw NetError(.badAddress, "parse address", "'\(ip)' is not an IP address")
        }
        let scope = parts.count == 2 ? if_nametoindex(String(parts[1])) : 0
        storage = .v6(address: withUnsafeBytes(of: v6) { Array($0) }, port: port, scope: scope)
    }

    init(_ storage: Storage) { self.storage = storage }

    /// Reads a `sockaddr` filled in by the kernel (accept, recvfrom, getsockname).
    init?(_ raw: UnsafePointer<sockaddr>) {
        switch Int32(raw.pointee.sa_family) {
        case AF_INET:
            let v4 = UnsafeRawPointer(raw).load(as: sockaddr_in.self)
            storage = .v4(address: UInt32(bigEndian: v4.sin_addr.s_addr), port: UInt16(bigEndian: v4.sin_port))
        case AF_INET6:
            let v6 = UnsafeRawPointer(raw).load(as: sockaddr_in6.self)
            storage = .v6(
                address: withUnsafeBytes(of: v6.sin6_addr) { Array($0) }, port: UInt16(bigEndian: v6.sin6_port),
                scope: v6.sin6_scope_id)
        default:
            return nil
        }
    }

    public var port: UInt16 {
        switch storage {
        case .v4(_, let port), .v6(_, let port, _): port
        }
    }

    public var isIPv6: Bool {
        if case .v6 = storage { return true }
        return false
    }

    /// The numeric address without the port: "127.0.0.2", "::1".
    public var ip: String {
        switch storage {
        case .v4(let address, _):
            return "\(address >> 24).\(address >> 16 & 0xFF).\(address >> 8 & 0xFF).\(address & 0xFF)"
        case .v6(let address, _, _):
            var raw = in6_addr()
            withUnsafeMutableBytes(of: &raw) { $0.copyBytes(from: address) }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// The text `ip` gives for an IPv6 address's 16 bytes ("2001:db8::a"); nil for another count.
    public static func ipv6Text(_ bytes: [UInt8]) -> String? {
        bytes.count == 16 ? SocketAddress(.v6(address: bytes, port: 0, scope: 0)).ip : nil
    }

    /// The same address with another port.
    public func with(port: UInt16) -> SocketAddress {
        switch storage {
        case .v4(let address, _): SocketAddress(.v4(address: address, port: port))
        case .v6(let address, _, let scope): SocketAddress(.v6(address: address, port: port, scope: scope))
        }
    }

    /// True for 127.0.0.0/8 and ::1.
    public var isLoopback: Bool {
        switch storage {
        case .v4(let address, _): address >> 24 == 127
        case .v6(let address, _, _): address == [UInt8](repeating: 0, count: 15) + [1]
        }
    }

    /// "127.0.0.2:8060" or "[::1]:8060".
    public var description: String { isIPv6 ? "[\(ip)]:\(port)" : "\(ip):\(port)" }

    var family: Int32 { isIPv6 ? AF_INET6 : AF_INET }

    /// Calls `body` with this address as a C `sockaddr`.
    func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        switch storage {
        case .v4(let address, let port):
            var raw = sockaddr_in()
            raw.sin_family = sa_family_t(AF_INET)
            raw.sin_port = port.bigEndian
            raw.sin_addr.s_addr = address.bigEndian
            return withUnsafePointer(to: &raw) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .v6(let address, let port, let scope):
            var raw = sockaddr_in6()
            raw.sin6_family = sa_family_t(AF_INET6)
            raw.sin6_port = port.bigEndian
            raw.sin6_scope_id = scope
            withUnsafeMutableBytes(of: &raw.sin6_addr) { $0.copyBytes(from: address) }
            return withUnsafePointer(to: &raw) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
    }
}
