import Configuration
import Drivers
import Net
import TVModel

/// Where a `tv/add` request may make the bridge connect (README › Security). Whoever may publish a
/// request must not get a port scanner for the bridge's own host or the addresses around it
/// (a cloud metadata service at 169.254.169.254): only addresses a TV on a network can have,
/// and only the ports TVs answer on, unless the configuration (`add_tv`) allows more.
struct AddTVPolicy: Sendable {
    var allowLoopback: Bool
    /// The vendors whose TVs may be added: their default ports are allowed.
    var vendors: [Vendor]
    /// Ports allowed besides the kinds' own (`add_tv.ports`).
    var extraPorts: [UInt16]
    /// This machine's own addresses (`getifaddrs`, read at each check): no TV is at one.
    var ownAddresses: @Sendable () -> Set<String>

    init(
        _ configuration: BridgeConfiguration.AddTV, vendors: [Vendor],
        ownAddresses: @escaping @Sendable () -> Set<String> = SocketAddress.interfaceAddresses
    ) {
        allowLoopback = configuration.allowLoopback
        self.vendors = vendors
        extraPorts = configuration.ports
        self.ownAddresses = ownAddresses
    }

    /// The ports a request for `kind` may name: that vendor's default port (every vendor's
    /// for `auto`), then the configured ones.
    func ports(for kind: TVKind?) -> [UInt16] {
        let asked = kind.map { kind in vendors.filter { $0.kind == kind } } ?? vendors
        var ports = asked.map(\.defaultPort)
        for port in extraPorts where !ports.contains(port) { ports.append(port) }
        return ports
    }

    /// Refuses an address no TV can be at, or a port no TV answers on, before anything is sent.
    func check(_ address: AddTVAddress) throws(BridgeService.RequestError) {
        guard let socketAddress = try? SocketAddress(ip: address.host, port: 1) else {
            throw .init("'\(CommandParser.printable(address.host))' is not an IP address")
        }
        switch socketAddress.scope {
        case .unicast: break
        case .loopback where allowLoopback: break
        case .loopback:
            throw .init(
                "\(address.host) is an address of this machine (loopback), not a TV on the network; add_tv.allow_loopback allows it, for simulated TVs"
            )
        case let scope:
            throw .init("\(address.host) cannot be a TV's address: it is \(scope.rawValue)")
        }
        // The bridge's own interfaces (a LAN address answers like the loopback); loopback
        // ones only when add_tv.allow_loopback lets simulated TVs live there.
        if socketAddress.scope != .loopback, ownAddresses().contains(socketAddress.canonicalIP) {
            throw .init(
                "\(address.host) is an address of this machine (one of its network interfaces), not a TV on the network"
            )
        }
        let allowed = ports(for: address.kind)
        if let port = address.port, !allowed.contains(port) {
            throw .init(
                "port \(port) is not one a TV answers on (tv/add probes \(allowed.map(String.init).joined(separator: ", ")); add_tv.ports allows others)"
            )
        }
    }
}
