import Glibc

/// What kind of destination an address is, for callers that must not let a stranger aim the
/// bridge at its own host or at special addresses (the `tv/add` request).
extension SocketAddress {
    /// The address class that decides whether a TV can live there.
    public enum Scope: String, Sendable {
        /// 127.0.0.0/8, ::1: this machine.
        case loopback
        /// 0.0.0.0/8, ::: "this host" (a connect to 0.0.0.0 reaches the loopback).
        case unspecified
        /// 169.254.0.0/16 (cloud metadata services live there), fe80::/10.
        case linkLocal = "link-local"
        /// 224.0.0.0/4, ff00::/8.
        case multicast
        /// 255.255.255.255.
        case broadcast
        /// Anything else: an address a device on a network can have.
        case unicast
    }

    /// The class of this address. An IPv4 address inside IPv6 (`::ffff:127.0.0.1`, the NAT64
    /// prefix `64:ff9b::/96`) is classed by the IPv4 address it carries.
    public var scope: Scope {
        switch storage {
        case .v4(let address, _): return Self.scope(ofIPv4: address)
        case .v6(let bytes, _, _):
            let mapped = canonicalIP != ip
            let nat64 = bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0]
            if mapped || nat64 {
                return Self.scope(ofIPv4: bytes[12..<16].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            }
            if bytes == [UInt8](repeating: 0, count: 16) { return .unspecified }
            if isLoopback { return .loopback }
            if bytes[0] == 0xFF { return .multicast }
            if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return .linkLocal }
            return .unicast
        }
    }

    /// The address in one spelling: `inet_ntop`'s, and an IPv4-mapped IPv6 address
    /// (`::ffff:10.0.0.5`) as the IPv4 address it is (`10.0.0.5`).
    public var canonicalIP: String {
        if case .v6(let bytes, _, _) = storage, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF,
            bytes[11] == 0xFF
        {
            return bytes[12..<16].map(String.init).joined(separator: ".")
        }
        return ip
    }

    private static func scope(ofIPv4 address: UInt32) -> Scope {
        switch address >> 24 {
        case 127: .loopback
        case 0: .unspecified
        case 224...239: .multicast
        case _ where address == 0xFFFF_FFFF: .broadcast
        case _ where address >> 16 == 0xA9FE: .linkLocal
        default: .unicast
        }
    }

    /// The interface an IPv6 zone names (`fe80::1%eth0`): 0 when none was given.
    public var zoneIndex: UInt32 {
        if case .v6(_, _, let zone) = storage { return zone }
        return 0
    }

    /// The interface with this index, by name (`eth0`), or nil when there is none.
    public static func interfaceName(index: UInt32) -> String? {
        var name = [CChar](repeating: 0, count: Int(IF_NAMESIZE) + 1)
        guard if_indextoname(index, &name) != nil else { return nil }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
