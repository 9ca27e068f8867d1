import Drivers
import Net
import TVModel

/// The address `tv/add` probes (README › Bridge requests): `[kind:]host[:port]` as the bridge device's
/// "TV to add" text takes it (`roku:192.168.1.20`, `192.168.1.20:8060`, `samsung:[2001:db8::5]:8001`),
/// or the `host`, `kind` and `port` members of a JSON request.
///
/// The host must be an IP address: the bridge talks to TVs by address (a Roku refuses a
/// Host header with a name), and the address is what the TV's record keeps.
struct AddTVAddress: Sendable, Equatable, CustomStringConvertible {
    var host: String
    /// nil: `auto`, every vendor is asked.
    var kind: TVKind?
    var port: UInt16?

    /// `host`, `host:port`, `[v6]:port`.
    var description: String {
        guard let port else { return host }
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The word that asks every vendor (`"kind": "auto"`).
    static let automatic = "auto"
    static func kindNames(_ vendors: [Vendor]) -> [String] { [automatic] + vendors.kindNames }

    /// The kind name of one of `vendors` (the bridge's), so a vendor added to the list is
    /// accepted here without a change; nil for `auto`.
    static func kind(_ text: String, vendors: [Vendor]) throws(BridgeService.RequestError) -> TVKind? {
        let name = text.lowercased()
        if name == automatic { return nil }
        guard let kind = vendors.vendor(TVKind(rawValue: name))?.kind else {
            throw .init(
                "unknown kind '\(CommandParser.printable(text))' (known: \(kindNames(vendors).joined(separator: ", ")))"
            )
        }
        return kind
    }

    /// - Parameter vendors: the bridge's, for the example a refusal gives.
    init(host: String, kind: TVKind?, port: UInt16?, vendors: [Vendor]) throws(BridgeService.RequestError) {
        // Printable ASCII only: the C parser behind `SocketAddress` stops at a NUL, so
        // "10.0.0.5\0junk" would otherwise pass as 10.0.0.5 and be stored with the junk.
        let printable = host.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
        guard !host.isEmpty, host.utf8.count <= Self.maxHostLength, printable,
            let address = try? SocketAddress(ip: host, port: port ?? 1)
        else {
            throw .init(
                "'\(CommandParser.printable(host))' is not an IP address; give the TV's address, e.g. 192.168.1.20\(vendors.first.map { " or \($0.kind):192.168.1.20" } ?? "")"
            )
        }
        if port == 0 { throw .init("the port must be 1 to 65535") }
        // Classed before `canonical` turns `::ffff:10.0.0.5` into `10.0.0.5`: a TV has an
        // IPv4 address or an IPv6 one, and one spelling per TV is its own.
        if address.isIPv4InIPv6 {
            throw .init(
                "\(CommandParser.printable(host)) cannot be a TV's address: it is special (an IPv4 address inside IPv6, ::ffff:0:0/96 or ::/96); give the IPv4 address itself"
            )
        }
        (self.host, self.kind, self.port) = (try Self.canonical(host, address), kind, port)
    }

    /// The longest host text looked at: an IPv6 address with an interface name fits in 64.
    static let maxHostLength = 64

    /// One spelling per address (`0::1` and `::1` are one TV): `SocketAddress.canonicalIP`. A zone
    /// (`%eth0`) must name an interface of this machine; it is kept only where it means
    /// something, on a link-local address, and then under the interface's own name.
    private static func canonical(_ host: String, _ address: SocketAddress) throws(BridgeService.RequestError)
        -> String
    {
        guard let percent = host.firstIndex(of: "%") else { return address.canonicalIP }
        guard address.zoneIndex != 0, let interface = SocketAddress.interfaceName(index: address.zoneIndex) else {
            throw .init(
                "'\(CommandParser.printable(String(host[host.index(after: percent)...])))' after % is not a network interface of this machine"
            )
        }
        return address.scope == .linkLocal ? "\(address.ip)%\(interface)" : address.canonicalIP
    }

    /// `[kind:]host[:port]`, the kind that of one of `vendors`; an IPv6 address with a port in brackets.
    static func parse(_ text: String, vendors: [Vendor]) throws(BridgeService.RequestError) -> AddTVAddress {
        var rest = Substring(text.trimmingWhitespace)
        var kind: TVKind?
        // A word before the first colon names a kind (an unknown one is refused as such, not
        // taken for a host); digits or hex before it are an address.
        if let colon = rest.firstIndex(of: ":"), !rest[..<colon].isEmpty,
            rest[..<colon].allSatisfy({ $0.isLetter || $0 == "-" }), !rest[..<colon].allSatisfy(\.isHexDigit)
        {
            kind = try Self.kind(String(rest[..<colon]), vendors: vendors)
            rest = rest[rest.index(after: colon)...]
        }
        var host = String(rest)
        var portText: Substring?
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else {
                throw .init("expected [address]:port after the brackets")
            }
            if !after.isEmpty { portText = after.dropFirst() }
        } else if rest.filter({ $0 == ":" }).count == 1, let colon = rest.firstIndex(of: ":") {
            host = String(rest[..<colon])
            portText = rest[rest.index(after: colon)...]
        }
        var port: UInt16?
        if let portText {
            guard let value = UInt16(portText) else {
                throw .init("'\(CommandParser.printable(String(portText)))' is not a port (1 to 65535)")
            }
            port = value
        }
        return try AddTVAddress(host: host, kind: kind, port: port, vendors: vendors)
    }
}
