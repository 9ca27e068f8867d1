import Net
import Wire

/// The SSDP responder and the Wake-on-LAN listener, with the Roku simulator's arrangement and
/// safety rules (see `RokuSimulator+Network.swift`): a shared `0.0.0.0:P` socket for broadcast
/// searches plus one on `host:P` for unicast ones, answers sent from `host` (so LOCATION's
/// host is the responder's address), and on a loopback host only loopback peers.
extension SamsungSimulator {
    static let searchTarget = "urn:samsung.com:device:RemoteControlReceiver:1"

    var usn: String { "\(identity.duid)::\(Self.searchTarget)" }

    var ssdpAdvert: SimSSDPAdvert {
        SimSSDPAdvert(
            host: options.host, searchTarget: Self.searchTarget, usn: usn, location: location,
            server: SamsungCatalog.serverHeader, maxAge: 1800, answerWindow: options.ssdpAnswerWindow)
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
        // Network standby still answers; a TV that is off is silent.
        let silent: @Sendable () -> Bool = { [weak self] in
            self?.core.withLock { $0.state.power == .off || $0.stopped } ?? true
        }
        spawn { await SimSSDP.answerSearches(on: shared, replyingFrom: own, advert, silent: silent) }
        spawn { await SimSSDP.answerSearches(on: own, replyingFrom: own, advert, silent: silent) }
    }

    func startWakeOnLAN() throws {
        guard let requested = options.wolPort else { return }
        let socket = try UDPSocket.bind(host: "0.0.0.0", port: requested, reuse: true)
        adopt(socket)
        core.withLock { $0.wolPort = socket.localAddress.port }
        // The REST API reports the Wi-Fi MAC only, in capitals; the listener compares lowercase.
        let macs = [identity.wifiMAC.lowercased()]
        let reported = identity.wifiMAC
        spawn { [self] in
            await SimSSDP.listenForMagicPackets(on: socket, macs: macs) { _, from in
                record("wol", ["mac": .string(reported), "from": .string(from.ip)])
                wake()
            }
        }
    }

    /// Sends NOTIFY ssdp:alive to `notifyAddress` (at start and when woken from off).
    func announce() {
        guard let target = options.notifyAddress else { return }
        let advert = ssdpAdvert
        spawn { await SimSSDP.announce(advert, to: target) }
    }

    private func adopt(_ socket: UDPSocket) {
        let keep = core.withLock { core -> Bool in
            guard !core.stopped else { return false }
            core.sockets.append(socket)
            return true
        }
        if !keep { socket.close() }
    }

    /// Runs a background task that `stop()` cancels and awaits.
    func spawn(_ work: @escaping @Sendable () async -> Void) {
        core.withLock { core in
            guard !core.stopped else { return }
            core.background.removeAll { $0.isCancelled }
            core.background.append(Task { await work() })
        }
    }
}
