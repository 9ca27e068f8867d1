import Glibc

extension SocketAddress {
    /// The addresses of this machine's network interfaces (`getifaddrs`), each in one
    /// spelling (`canonicalIP`): what `tv/add` must not aim the bridge at. Read anew on each
    /// call, so an address the machine gained since start is in it.
    public static func interfaceAddresses() -> Set<String> {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var addresses = Set<String>()
        var cursor = list
        while let entry = cursor {
            if let raw = entry.pointee.ifa_addr, let address = SocketAddress(UnsafePointer(raw)) {
                addresses.insert(address.canonicalIP)
            }
            cursor = entry.pointee.ifa_next
        }
        return addresses
    }

    /// An IPv4 address written inside IPv6: IPv4-compatible (`::/96`, `::10.0.0.5`, deprecated)
    /// or IPv4-mapped (`::ffff:0:0/96`, `::ffff:10.0.0.5`). `::` and `::1` are not: they are
    /// the unspecified and the loopback address.
    public var isIPv4InIPv6: Bool {
        guard case .v6(let bytes, _, _) = storage, bytes[0..<10].allSatisfy({ $0 == 0 }) else { return false }
        if bytes[10] == 0xFF && bytes[11] == 0xFF { return true }
        guard bytes[10] == 0 && bytes[11] == 0 else { return false }
        return bytes[12..<15].contains { $0 != 0 } || bytes[15] > 1
    }
}
