import Net
import Support
import Wire

/// Finds service instances with DNS-SD over multicast DNS (RFC 6762, 6763): PTR queries for
/// each service type to the configured address, answers read on the query socket.
///
/// The address is usually the group 224.0.0.251:5353; it may be a broadcast or unicast
/// address (tests on loopback). Queries go from an ephemeral port with the QU bit, so
/// responders answer by unicast to it (RFC 6762 §5.4, §6.7). An instance counts only when
/// its address records include the address the answer came from: the bridge never connects
/// to an address a stranger chose. Datagrams are bounded by `DNSMessage.maxBytes`, sightings
/// per browse by `maxSightingsPerBrowse`.
public struct DNSSDBrowser: Sendable {
    public static let multicastAddress = "224.0.0.251"
    public static let port: UInt16 = 5353

    public let queryAddress: SocketAddress
    /// Interface names or IPv4 addresses to query on; empty = the kernel's choice.
    public let interfaces: [String]
    public let services: [DNSName]
    let logger: Logger
    let foreignAddressWarnings = LogThrottle()

    public static let maxSightingsPerBrowse = 16384

    public init(queryAddress: SocketAddress, interfaces: [String], services: [DNSName], logger: Logger) {
        self.queryAddress = queryAddress
        self.interfaces = interfaces
        self.services = services
        self.logger = logger
    }

    var isMulticast: Bool {
        guard !queryAddress.isIPv6, let first = queryAddress.ip.split(separator: ".").first, let octet = Int(first)
        else { return false }
        return (224...239).contains(octet)
    }

    /// Sends `count` query rounds `spacing` apart and reports each distinct (address,
    /// instance) that answers until `window` after the last.
    public func browse(
        count: Int = 3, spacing: Duration = .seconds(1), window: Duration = .seconds(2),
        report: (DNSSDSighting) async -> Void
    ) async throws {
        let socket = try UDPSocket.bind(host: "0.0.0.0", port: 0)
        defer { socket.close() }
        socket.enableBroadcast()
        let deadline = LoopClock.current.now + spacing * max(0, count - 1) + window
        async let sending: Void = sendQueries(socket, count: count, spacing: spacing)
        var seen: Set<String> = []
        while seen.count < Self.maxSightingsPerBrowse {
            let datagram: (bytes: [UInt8], from: SocketAddress)
            do {
                datagram = try await socket.receive(maxBytes: DNSMessage.maxBytes + 1, deadline: deadline)
            } catch let error as NetError where error.kind == .timedOut {
                break
            }
            for sighting in sightings(in: datagram.bytes, from: datagram.from.ip)
            where seen.insert("\(sighting.address) \(sighting.service) \(sighting.instance)").inserted {
                await report(sighting)
            }
        }
        try await sending
    }

    private func sendQueries(_ socket: UDPSocket, count: Int, spacing: Duration) async throws {
        let query = DNSMessage.query(services.map { DNSQuestion(name: $0, type: .ptr, unicastResponse: true) })
        for round in 0..<count {
            for interface in isMulticast ? (interfaces.isEmpty ? [nil] : interfaces.map { Optional($0) }) : [nil] {
                if isMulticast {
                    do {
                        try socket.setMulticastInterface(interface, ttl: 255)  // RFC 6762 §11
                    } catch {
                        logger.warning("cannot query mDNS on interface \(interface ?? "default"): \(error)")
                        continue
                    }
                }
                try await socket.send(query.encoded(), to: queryAddress)
            }
            if round + 1 < count { try await EventLoop.sleep(for: spacing) }
        }
    }

    /// The sightings one datagram holds; none (with a debug line, or a throttled warning for
    /// an answer naming another host) when it is not for us.
    func sightings(in bytes: [UInt8], from sender: String) -> [DNSSDSighting] {
        let message: DNSMessage
        do {
            message = try DNSMessage(decoding: bytes)
        } catch {
            logger.debug("ignoring an mDNS datagram from \(sender): \(error)")
            return []
        }
        guard message.isResponse else { return [] }
        let (found, foreign) = DNSSDSighting.read(message, from: sender, services: services)
        for (instance, addresses) in foreign {
            if let heldBack = foreignAddressWarnings.admit(now: LoopClock.current.now) {
                logger.warning(
                    "ignoring mDNS \(instance) from \(sender): its address records name another host (\(addresses.joined(separator: ", ")))",
                    heldBack > 0 ? [("held_back", "\(heldBack)")] : [])
            } else {
                logger.debug("ignoring mDNS \(instance) from \(sender): its address records name another host")
            }
        }
        return found
    }
}
