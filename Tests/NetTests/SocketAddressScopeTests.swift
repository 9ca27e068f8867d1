import Net
import Testing

/// `SocketAddress.scope` and `canonicalIP`: what `tv/add` decides by.
@Suite("Socket address classes")
struct SocketAddressScopeTests {
    @Test(
        "each special range, also carried in IPv6 (mapped, NAT64), is classed by what it is",
        arguments: [
            ("127.0.0.1", SocketAddress.Scope.loopback), ("127.255.255.254", .loopback), ("::1", .loopback),
            ("::ffff:127.0.0.2", .loopback), ("0.0.0.0", .unspecified), ("0.1.2.3", .unspecified),
            ("::", .unspecified), ("169.254.169.254", .linkLocal), ("fe80::1", .linkLocal),
            ("febf::1", .linkLocal), ("64:ff9b::a9fe:a9fe", .linkLocal), ("224.0.0.251", .multicast),
            ("239.255.255.250", .multicast), ("ff02::1", .multicast), ("255.255.255.255", .broadcast),
            ("192.0.2.20", .unicast), ("198.51.100.5", .unicast), ("169.253.0.1", .unicast), ("fec0::1", .unicast),
            ("2001:db8::1", .unicast), ("::ffff:192.0.2.20", .unicast), ("240.0.0.1", .unicast),
        ])
    func scope(_ text: String, _ scope: SocketAddress.Scope) throws {
        #expect(try SocketAddress(ip: text, port: 1).scope == scope)
    }

    @Test("one spelling: inet_ntop's, and an IPv4-mapped address as IPv4")
    func canonical() throws {
        #expect(try SocketAddress(ip: "0:0::1", port: 1).canonicalIP == "::1")
        #expect(try SocketAddress(ip: "::FFFF:192.0.2.5", port: 1).canonicalIP == "192.0.2.5")
        #expect(try SocketAddress(ip: "2001:DB8:0::5", port: 1).canonicalIP == "2001:db8::5")
        #expect(try SocketAddress(ip: "192.0.2.5", port: 1).canonicalIP == "192.0.2.5")
    }

    @Test("a zone names an interface by index, and the index names it back")
    func zone() throws {
        let address = try SocketAddress(ip: "fe80::1%lo", port: 1)
        #expect(address.zoneIndex != 0)
        #expect(SocketAddress.interfaceName(index: address.zoneIndex) == "lo")
        #expect(try SocketAddress(ip: "fe80::1%nosuchinterface", port: 1).zoneIndex == 0)
        #expect(SocketAddress.interfaceName(index: 0) == nil)
    }
}
