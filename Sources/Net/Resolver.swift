import Glibc
import Support

/// Turns a host name or numeric address into socket addresses.
public enum Resolver {
    /// Numeric addresses return at once; names are resolved with `getaddrinfo` as
    /// `BlockingWork`, so the blocking lookup never holds up the event loop.
    public static func resolve(_ host: String, port: UInt16) async throws(NetError) -> [SocketAddress] {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if let address = try? SocketAddress(ip: bare, port: port) { return [address] }
        return try await BlockingWork.run { lookup(bare, port: port) }.get()
    }

    private static func lookup(_ host: String, port: UInt16) -> Result<[SocketAddress], NetError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            return .failure(NetError(.badAddress, "resolve \(host)", String(cString: gai_strerror(status))))
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var cursor = list
        while let entry = cursor {
            if let raw = entry.pointee.ai_addr, let address = SocketAddress(raw), !addresses.contains(address) {
                addresses.append(address)
            }
            cursor = entry.pointee.ai_next
        }
        // Prefer IPv4: brokers and TVs on home networks are reached over IPv4 far more often.
        addresses.sort { !$0.isIPv6 && $1.isIPv6 }
        return addresses.isEmpty
            ? .failure(NetError(.badAddress, "resolve \(host)", "no addresses")) : .success(addresses)
    }
}
