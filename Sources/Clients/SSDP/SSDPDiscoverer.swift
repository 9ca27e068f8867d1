import Net
import Support
import Synchronization
import Wire

/// A device that answered an SSDP search or announced itself.
public struct SSDPSighting: Equatable, Sendable {
    /// The responder's IP address (the datagram's source).
    public var address: String
    /// ST of a response, NT of a NOTIFY.
    public var target: String
    public var location: URLParts
    public var usn: String?
    public var server: String?
    public var maxAge: Int?
    /// false for `ssdp:byebye`.
    public var alive: Bool
}

/// Finds devices with SSDP (UPnP Device Architecture 1.1 §1.3): M-SEARCH to the configured
/// address, and NOTIFY listening.
///
/// The address is usually the multicast group 239.255.255.250:1900; it may also be a
/// broadcast or unicast address (Docker, VLANs, tests on loopback). A response or NOTIFY
/// counts only when its LOCATION points at the address it came from: no request is ever
/// sent to an address a stranger chose.
public struct SSDPDiscoverer: Sendable {
    public let searchAddress: SocketAddress
    /// Interface names or IPv4 addresses to search and listen on; empty = the kernel's choice.
    public let interfaces: [String]
    /// The search targets to look for, e.g. `roku:ecp`.
    public let targets: [String]
    let logger: Logger
    /// A flood of answers naming other hosts is a warning a minute, not one per datagram.
    let foreignLocationWarnings = LogThrottle()

    /// At most this many sightings per search are reported (a flood of answers costs nothing
    /// more): room for a network of 5,000 TVs and more (each answers one target), about 1 MB of
    /// remembered (address, target) pairs while the search runs.
    public static let maxSightingsPerSearch = 16384

    public init(searchAddress: SocketAddress, interfaces: [String], targets: [String], logger: Logger) {
        self.searchAddress = searchAddress
        self.interfaces = interfaces
        self.targets = targets
        self.logger = logger
    }

    var isMulticast: Bool {
        guard !searchAddress.isIPv6, let first = searchAddress.ip.split(separator: ".").first,
            let octet = Int(first)
        else { return false }
        return (224...239).contains(octet)
    }

    /// The search socket's receive buffer: room for a few thousand answers (loopback datagrams
    /// cost about 1 KB each in the buffer), so a large network's answers are queued, not
    /// dropped, while the reader is busy. The kernel doubles what is asked for and caps the
    /// request at net.core.rmem_max (often 208 KB; `openSearchSocket` logs what it granted).
    public static let receiveBufferBytes: Int32 = 4 * 1024 * 1024
    /// The granted buffer is logged once per process, not at every search.
    private static let bufferReported = Atomic(false)

    /// The socket a search sends from and reads answers on: any port, broadcast allowed, and
    /// the receive buffer asked for (`receiveBufferBytes`). When the kernel grants less, it says
    /// so once: answers arriving faster than they are read beyond that are dropped by the
    /// kernel, and only a later search round finds those TVs.
    func openSearchSocket() throws(NetError) -> UDPSocket {
        let socket = try UDPSocket.bind(host: "0.0.0.0", port: 0)
        socket.enableBroadcast()
        socket.setReceiveBufferSize(Self.receiveBufferBytes)
        if !Self.bufferReported.exchange(true, ordering: .relaxed) {
            // Linux reports twice the size asked for (the doubling is its bookkeeping).
            let granted = Int(socket.receiveBufferSize) / 2
            let asked = Int(Self.receiveBufferBytes)
            if granted < asked {
                logger.info(
                    "SSDP receive buffer: \(granted / 1024) KB of the \(asked / 1024) KB asked for (net.core.rmem_max caps it); in a network of thousands of TVs some search answers may be dropped and found by a later search"
                )
            } else {
                logger.debug("SSDP receive buffer: \(granted / 1024) KB")
            }
        }
        return socket
    }

    /// Sends `count` M-SEARCH rounds `spacing` apart (UDP drops packets; a repeat a second
    /// later, after the first answers have arrived, is what UPnP suggests) for every target and
    /// reports each distinct (address, target) that answers until MX + 1 seconds after the last.
    public func search(
        count: Int = 3, mx: Int = 2, spacing: Duration = .seconds(1),
        report: (SSDPSighting) async -> Void
    ) async throws {
        let socket = try openSearchSocket()
        defer { socket.close() }
        let outgoing =
            isMulticast ? (interfaces.isEmpty ? [nil] : interfaces.map { Optional($0) }) : [nil]
        let deadline = LoopClock.current.now + spacing * max(0, count - 1) + .seconds(mx + 1)
        async let sending: Void = sendSearches(
            socket, outgoing: outgoing, count: count, mx: mx, spacing: spacing)
        var seen: Set<String> = []
        while seen.count < Self.maxSightingsPerSearch {
            let datagram: (bytes: [UInt8], from: SocketAddress)
            do {
                datagram = try await socket.receive(deadline: deadline)
            } catch let error as NetError where error.kind == .timedOut {
                break
            }
            guard
                let sighting = sighting(from: datagram.bytes, sender: datagram.from, expecting: .response)
            else {
                continue
            }
            if seen.insert("\(sighting.address) \(sighting.target)").inserted { await report(sighting) }
        }
        try await sending
    }

    private func sendSearches(
        _ socket: UDPSocket, outgoing: [String?], count: Int, mx: Int, spacing: Duration
    ) async throws {
        for round in 0..<count {
            for interface in outgoing {
                if isMulticast {
                    do {
                        try socket.setMulticastInterface(interface, ttl: 2)
                    } catch {
                        logger.warning("cannot search on interface \(interface ?? "default"): \(error)")
                        continue
                    }
                }
                for target in targets {
                    let message = SSDPSearch(searchTarget: target, mx: mx, host: searchAddress.description)
                    try await socket.send(message.encode(), to: searchAddress)
                }
            }
            if round + 1 < count { try await EventLoop.sleep(for: spacing) }
        }
    }

    /// Reports NOTIFY announcements (and unsolicited responses) until the task is cancelled.
    /// Listens on the search address's port, joined to its group when it is multicast.
    public func listen(report: (SSDPSighting) async -> Void) async throws {
        let socket = try UDPSocket.bind(host: "0.0.0.0", port: searchAddress.port, reuse: true)
        defer { socket.close() }
        if isMulticast {
            for interface in interfaces.isEmpty ? [nil] : interfaces.map({ Optional($0) }) {
                try socket.joinMulticast(group: searchAddress.ip, interface: interface)
            }
        }
        while !Task.isCancelled {
            let datagram = try await socket.receive()
            if let sighting = sighting(from: datagram.bytes, sender: datagram.from, expecting: .notify) {
                await report(sighting)
            }
        }
    }

    enum Expectation { case response, notify }

    /// Parses and checks one datagram; nil (with a debug line) when it is not for us.
    func sighting(from bytes: [UInt8], sender: SocketAddress, expecting: Expectation) -> SSDPSighting? {
        let message: SSDPMessage
        do {
            message = try SSDPMessage.parse(bytes)
        } catch {
            logger.debug("ignoring an SSDP datagram from \(sender.ip): \(error)")
            return nil
        }
        let headers: SSDPHeaders
        let target: String?
        var alive = true
        switch (message, expecting) {
        case (.response(let fields), _):
            headers = fields
            target = fields.searchTarget
        case (.notify(let fields), .notify):
            headers = fields
            target = fields.notificationType
            alive = fields.notificationSubtype != .byebye
        default:
            return nil
        }
        guard let target, targets.contains(target) else { return nil }
        guard let text = headers.location else {
            if !alive { return nil }
            logger.debug("ignoring SSDP \(target) from \(sender.ip): no LOCATION")
            return nil
        }
        guard let location = try? URLParts(parsing: text), location.scheme == "http" else {
            logger.debug("ignoring SSDP \(target) from \(sender.ip): bad LOCATION \(text)")
            return nil
        }
        guard location.host == sender.ip else {
            if let heldBack = foreignLocationWarnings.admit(now: LoopClock.current.now) {
                // How many were held back since the last warning, as metadata (held_back=N).
                logger.warning(
                    "ignoring SSDP \(target) from \(sender.ip): its LOCATION points at another host (\(location.host))",
                    heldBack > 0 ? [("held_back", "\(heldBack)")] : [])
            } else {
                logger.debug(
                    "ignoring SSDP \(target) from \(sender.ip): its LOCATION points at another host (\(location.host))"
                )
            }
            return nil
        }
        return SSDPSighting(
            address: sender.ip, target: target, location: location, usn: headers.usn,
            server: headers.server,
            maxAge: headers.maxAge, alive: alive)
    }
}
