import Drivers
import Net
import TVModel

/// The address `tv/add` probes (SPEC §10): `[kind:]host[:port]` as the bridge device's
/// "TV to add" text takes it (`roku:192.168.1.20`, `192.168.1.20:8060`, `samsung:[fe80::1]:8001`),
/// or the `host`, `kind` and `port` members of a JSON request.
///
/// The host must be an IP address: the bridge talks to TVs by address (a Roku refuses a
/// Host header with a name), and the address is what the TV's record keeps.
struct AddTVAddress: Sendable, Equatable {
    var host: String
    /// nil: `auto`, every vendor is asked.
    var kind: TVKind?
    var port: UInt16?

    /// The word that asks every vendor (SPEC §10 `"kind": "auto"`).
    static let automatic = "auto"
    static var kindNames: [String] { [automatic] + Vendors.all.kindNames }

    /// A kind name of a listed vendor, so a vendor added to `Vendors.all` is accepted here
    /// without a change; nil for `auto`.
    static func kind(_ text: String) throws(BridgeService.RequestError) -> TVKind? {
        let name = text.lowercased()
        if name == automatic { return nil }
        guard let kind = Vendors.all.vendor(TVKind(rawValue: name))?.kind else {
            throw .init(
                "unknown kind '\(CommandParser.printable(text))' (known: \(kindNames.joined(separator: ", ")))")
        }
        return kind
    }

    init(host: String, kind: TVKind?, port: UInt16?) throws(BridgeService.RequestError) {
        // Printable ASCII only: the C parser behind `SocketAddress` stops at a NUL, so
        // "10.0.0.5\0junk" would otherwise pass as 10.0.0.5 and be stored with the junk.
        let printable = host.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
        guard !host.isEmpty, printable, (try? SocketAddress(ip: host, port: port ?? 1)) != nil else {
            throw .init(
                "'\(CommandParser.printable(host))' is not an IP address; give the TV's address, e.g. 192.168.1.20 or roku:192.168.1.20"
            )
        }
        if port == 0 { throw .init("the port must be 1 to 65535") }
        (self.host, self.kind, self.port) = (host, kind, port)
    }

    /// `[kind:]host[:port]`; an IPv6 address with a port in brackets.
    static func parse(_ text: String) throws(BridgeService.RequestError) -> AddTVAddress {
        var rest = Substring(text.trimmingWhitespace)
        var kind: TVKind?
        // A word before the first colon names a kind (an unknown one is refused as such, not
        // taken for a host); digits or hex before it are an address.
        if let colon = rest.firstIndex(of: ":"), !rest[..<colon].isEmpty,
            rest[..<colon].allSatisfy({ $0.isLetter || $0 == "-" }), !rest[..<colon].allSatisfy(\.isHexDigit)
        {
            kind = try Self.kind(String(rest[..<colon]))
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
        return try AddTVAddress(host: host, kind: kind, port: port)
    }
}
