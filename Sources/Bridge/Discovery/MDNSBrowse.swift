import Clients
import Configuration
import Drivers
import Net
import Support
import TVModel
import Wire

/// Finding TVs by DNS-SD over multicast DNS: one browse for every vendor's service types
/// (`Vendor.mdnsServices`) at `discovery.mdns_address`, each instance reported with its vendor
/// and the port its SRV record names. Shared by the bridge's search loop and `tv2mqtt discover`.
public struct MDNSBrowse: Sendable {
    public struct Found: Sendable, Equatable {
        public var host: String
        public var kind: TVKind
        public var port: UInt16?
        /// The instance's name, for the log.
        public var instance: String
    }

    let browser: DNSSDBrowser
    let vendors: [Vendor]

    /// Nil when mDNS is off, no vendor declares a service type, or the address is not an IP
    /// address (said once, as an error).
    public init?(_ discovery: BridgeConfiguration.Discovery, vendors: [Vendor], logger: Logger) {
        let services = vendors.mdnsServices.compactMap { try? DNSName($0 + ".local") }
        guard discovery.mdns, !services.isEmpty else { return nil }
        let address = discovery.mdnsAddress
        guard let socketAddress = try? SocketAddress(ip: address.host, port: address.port) else {
            logger.error("discovery.mdns_address must be an IP address: \(address)")
            return nil
        }
        browser = DNSSDBrowser(
            queryAddress: socketAddress, interfaces: discovery.interfaces, services: services, logger: logger)
        self.vendors = vendors
    }

    /// Queries `rounds` times a second apart and reports every instance that answers within
    /// `window` after the last.
    public func browse(rounds: Int = 3, window: Duration = .seconds(2), report: (Found) async -> Void) async throws {
        try await browser.browse(count: rounds, window: window) { sighting in
            guard let vendor = vendors.vendor(mdnsService: sighting.service.description) else { return }
            await report(
                Found(host: sighting.address, kind: vendor.kind, port: sighting.port, instance: sighting.instance))
        }
    }
}
