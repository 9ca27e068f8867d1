import Configuration
import Drivers
import Net
import TVModel
import TestSupport
import Testing

@testable import Bridge

/// `tv/add`'s address parser (`AddTVAddress`): what the "TV to add" text and a plain request take.
@Suite("tv/add addresses")
struct AddTVAddressTests {
    @Test(
        "good addresses: [kind:]host[:port], IPv6 in brackets with a port",
        arguments: [
            ("198.51.100.20", "198.51.100.20", nil, nil),
            ("roku:198.51.100.20", "198.51.100.20", TVKind.roku, nil),
            (" samsung:192.0.2.5:8001 ", "192.0.2.5", .samsung, 8001),
            ("auto:192.0.2.5", "192.0.2.5", nil, nil),
            ("ROKU:192.0.2.5", "192.0.2.5", .roku, nil),
            ("fe80::1", "fe80::1", nil, nil),
            ("samsung:[fe80::1]:8001", "fe80::1", .samsung, 8001),
            ("lg:192.0.2.7", "192.0.2.7", .lg, nil),
        ] as [(String, String, TVKind?, UInt16?)])
    func good(text: String, host: String, kind: TVKind?, port: UInt16?) throws {
        let address = try AddTVAddress.parse(text, vendors: .shipped)
        #expect(address.host == host)
        #expect(address.kind == kind)
        #expect(address.port == port)
    }

    @Test(
        "bad addresses are refused with a message that says why",
        arguments: [
            ("", "is not an IP address"),
            ("roku:", "is not an IP address"),
            ("tv.local", "is not an IP address"),
            ("sony:192.0.2.5", "unknown kind 'sony'"),
            ("192.0.2.5:99999", "is not a port"),
            ("192.0.2.5:0", "the port must be 1 to 65535"),
            ("[fe80::1", "is not an IP address"),
            ("[fe80::1]x", "expected [address]:port"),
            ("192.0.2.5\u{0}", "is not an IP address"),
            (String(repeating: "9", count: 300), "is not an IP address"),
        ])
    func bad(text: String, message: String) {
        #expect(throws: BridgeService.RequestError.self) { try AddTVAddress.parse(text, vendors: .shipped) }
        let error = Self.error(text)
        #expect(error?.contains(message) == true, "\(String(describing: error))")
    }

    @Test(
        "one spelling per address: inet_ntop's, a zone only on link-local and only an interface",
        arguments: [
            ("0::1", "::1"),
            ("0:0:0:0:0:0:0:1", "::1"),
            ("::1%lo", "::1"),
            ("FE80::0:1%lo", "fe80::1%lo"),
            ("2001:DB8::1", "2001:db8::1"),
        ])
    func canonical(text: String, host: String) throws {
        #expect(try AddTVAddress.parse(text, vendors: .shipped).host == host)
    }

    @Test(
        "an IPv4 address inside IPv6 (::ffff:0:0/96, ::/96) is special: refused, asking for the IPv4 address",
        arguments: [
            "::ffff:192.0.2.5", "[::FFFF:192.0.2.5]:8060", "0:0:0:0:0:ffff:c000:205", "::192.0.2.5", "::c000:205",
            "::ffff:127.0.0.1", "::ffff:0.0.0.0", "::0.0.0.2",
        ])
    func ipv4InIPv6(text: String) {
        let error = Self.error(text)
        #expect(
            error?.hasSuffix(
                "cannot be a TV's address: it is special (an IPv4 address inside IPv6, ::ffff:0:0/96 or ::/96); give the IPv4 address itself"
            ) == true, "\(text): \(String(describing: error))")
    }

    @Test("the addresses of this machine's own interfaces are refused, loopback ones only without allow_loopback")
    func ownInterfaces() throws {
        var configuration = BridgeConfiguration.AddTV()
        configuration.allowLoopback = true
        let policy = AddTVPolicy(
            configuration, vendors: .shipped, ownAddresses: { ["192.0.2.10", "2001:db8::10", "127.0.0.1"] })
        for host in ["192.0.2.10", "2001:db8::10", "2001:DB8:0::10"] {
            let address = try AddTVAddress.parse(host, vendors: .shipped)
            var refusal: String?
            do { try policy.check(address) } catch { refusal = error.message }
            #expect(
                refusal?.hasSuffix(
                    "is an address of this machine (one of its network interfaces), not a TV on the network")
                    == true, "\(host): \(String(describing: refusal))")
        }
        // Another address is a TV's; a loopback one is allow_loopback's to decide.
        for host in ["192.0.2.11", "127.0.0.1"] {
            #expect(throws: Never.self, "\(host)") { try policy.check(try AddTVAddress.parse(host, vendors: .shipped)) }
        }
        // The machine's real interfaces: its loopback address is among them.
        #expect(SocketAddress.interfaceAddresses().contains("127.0.0.1"))
    }

    @Test("a zone that names no interface of this machine is refused, however long")
    func zoneNotAnInterface() {
        let error = Self.error("::1%nosuchinterface")
        #expect(
            error == "'nosuchinterface' after % is not a network interface of this machine",
            "\(String(describing: error))")
        let long = Self.error("fe80::1%" + String(repeating: "x", count: 200))
        #expect(long?.contains("is not an IP address") == true, "\(String(describing: long))")
    }

    @Test("a kind name that TVKind does not know is refused, naming the known ones")
    func unknownKind() {
        let message = Self.kindError("sony")
        #expect(message?.contains("unknown kind 'sony' (known: auto, roku, samsung, samsung-legacy, lg") == true)
    }

    static func error(_ text: String) -> String? {
        do {
            _ = try AddTVAddress.parse(text, vendors: .shipped)
            return nil
        } catch {
            return error.message
        }
    }

    static func kindError(_ text: String) -> String? {
        do {
            _ = try AddTVAddress.kind(text, vendors: .shipped)
            return nil
        } catch {
            return error.message
        }
    }
}
