import Net
import Wire

/// The SSDP responder and the Wake-on-LAN listener.
///
/// Several simulated TVs (and a test's searcher) share one SSDP port, so the responder binds
/// `0.0.0.0:P` with SO_REUSEADDR/SO_REUSEPORT: a search broadcast to 127.255.255.255:P reaches
/// every such socket. A unicast search to one TV's `host:P` would go to just one socket of the
/// group, so each TV also binds `host:P`, which the kernel prefers for datagrams addressed to
/// it exactly; answers leave from that socket, so their source address is the host LOCATION
/// names (the bridge ignores answers whose LOCATION points elsewhere).
///
/// Safety: a TV on a loopback host answers only loopback senders and notifies only loopback
/// addresses, so a test can never talk to the workplace network.
extension RokuSimulator {
    static let searchTarget = "roku:ecp"

    var usn: String { "uuid:roku:ecp:\(identity.serial)" }

    var ssdpAdvert: SimSSDPAdvert {
        SimSSDPAdvert(
            host: options.host, searchTarget: Self.searchTarget, usn: usn, location: location,
            server: RokuCatalog.serverHeader, maxAge: 3600, answerWindow: options.ssdpAnswerWindow)
    }

    func startSSDP() throws {
        guard let requested = options.ssdpPort else { return }
        let shared = try UDPSocket.bind(host: "0.0.0.0", port: requested, reuse: true)
        adopt(shared)
        // Port 0: the shared socket got a port from the kernel, and the TV's own joins it.
        let ssdpPort = shared.localAddress.port
        core.withLock { $0.ssdpPort = ssdpPort }
        let own = try UDPSocket.bind(host: options.host, port: ssdpPort, reuse: true)
        adopt(own)
        let advert = ssdpAdvert
        let silent: @Sendable () -> Bool = { [weak self] in self?.isSilent ?? true }
        spawn { await SimSSDP.answerSearches(on: shared, replyingFrom: own, advert, silent: silent) }
        spawn { await SimSSDP.answerSearches(on: own, replyingFrom: own, advert, silent: silent) }
    }

    /// Off (unreachable) or stopped: no SSDP answers.
    private var isSilent: Bool { core.withLock { $0.state.power == .off || $0.stopped } }

    func startWakeOnLAN() throws {
        guard let requested = options.wolPort else { return }
        let socket = try UDPSocket.bind(host: "0.0.0.0", port: requested, reuse: true)
        adopt(socket)
        core.withLock { $0.wolPort = socket.localAddress.port }
        // A stick has Wi-Fi only; a TV wakes on either MAC.
        let macs = [identity.wifiMAC] + (kind == .tv ? [identity.ethernetMAC] : [])
        spawn { [self] in
            await SimSSDP.listenForMagicPackets(on: socket, macs: macs) { mac, from in
                record("wol", ["mac": .string(mac), "from": .string(from.ip)])
                wake()
            }
        }
    }

    /// Sends NOTIFY ssdp:alive to `notifyAddress` (at start and when woken).
    func announce() {
        guard let target = options.notifyAddress else { return }
        let advert = ssdpAdvert
        spawn { await SimSSDP.announce(advert, to: target) }
    }

    /// Keeps a socket to close at `stop()` (closed at once when already stopped).
    private func adopt(_ socket: UDPSocket) {
        let keep = core.withLock { core -> Bool in
            guard !core.stopped else { return false }
            core.sockets.append(socket)
            return true
        }
        if !keep { socket.close() }
    }

    /// Runs a background task that `stop()` cancels and awaits.
    private func spawn(_ work: @escaping @Sendable () async -> Void) {
        core.withLock { core in
            guard !core.stopped else { return }
            core.background.removeAll { $0.isCancelled }
            // Not inside an ECP-2 answer's held log (`heldLog`): what it logs later is logged then.
            core.background.append(Self.$heldLog.withValue(nil) { Task { await work() } })
        }
    }
}
