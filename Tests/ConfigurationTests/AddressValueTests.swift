import Configuration
import Testing

@Suite("Configuration: the address values")
struct AddressValueTests {
    @Test("a /24 lists its 254 hosts, without the network and broadcast addresses")
    func classC() {
        let hosts = CIDR(network: 0xC000_0200, prefixLength: 24).hosts
        #expect(hosts.count == 254)
        #expect(hosts.first == "192.0.2.1")
        #expect(hosts.last == "192.0.2.254")
    }

    @Test("a /31 lists both its addresses and a /32 its one (no network or broadcast address to leave out)")
    func pointToPoint() {
        #expect(CIDR(network: 0xC000_0200, prefixLength: 31).hosts == ["192.0.2.0", "192.0.2.1"])
        #expect(CIDR(network: 0xC000_0207, prefixLength: 32).hosts == ["192.0.2.7"])
        #expect(CIDR(network: 0xC000_0204, prefixLength: 30).hosts == ["192.0.2.5", "192.0.2.6"])
    }

    @Test("a network is written as it is configured")
    func cidrDescription() {
        #expect(CIDR(network: 0xC000_0200, prefixLength: 24).description == "192.0.2.0/24")
        #expect(CIDR(network: 0, prefixLength: 32).description == "0.0.0.0/32")
    }

    @Test("an IPv6 host is bracketed before its port, an IPv4 host or a name is not")
    func hostPort() {
        #expect(HostPort(host: "239.255.255.250", port: 1900).description == "239.255.255.250:1900")
        #expect(HostPort(host: "ff02::c", port: 1900).description == "[ff02::c]:1900")
        #expect(HostPort(host: "tv.example", port: 9).description == "tv.example:9")
    }

    @Test("a broker is written as the URL it is configured with, mqtt or mqtts")
    func brokerAddress() {
        #expect(BrokerAddress(useTLS: false, host: "localhost", port: 1883).description == "mqtt://localhost:1883")
        #expect(BrokerAddress(useTLS: true, host: "::1", port: 8883).description == "mqtts://[::1]:8883")
    }
}
