import Net
import Wire

/// What a Samsung says over SSDP, and what wakes it (the sockets are `SimHost`'s).
extension SamsungSimulator {
    static let searchTarget = "urn:samsung.com:device:RemoteControlReceiver:1"

    var usn: String { "\(identity.duid)::\(Self.searchTarget)" }

    var ssdpAdvert: SimSSDPAdvert {
        SimSSDPAdvert(
            host: options.host, searchTarget: Self.searchTarget, usn: usn, location: location,
            server: SamsungCatalog.serverHeader, maxAge: 1800, answerWindow: options.ssdpAnswerWindow)
    }

    func startSSDP() throws {
        // Network standby still answers; a TV that is off is silent.
        try common.startSSDP(on: options.ssdpPort, ssdpAdvert) { [weak self] in
            guard let self else { return true }
            return core.withLock { $0.state.power == .off } || common.isStopped
        }
    }

    func startWakeOnLAN() throws {
        // The REST API reports the Wi-Fi MAC only, in capitals; the listener compares lowercase.
        let reported = identity.wifiMAC
        try common.startWakeOnLAN(on: options.wolPort, macs: [reported.lowercased()]) { [self] _, from in
            record("wol", ["mac": .string(reported), "from": .string(from.ip)])
            wake()
        }
    }

    /// Sends NOTIFY ssdp:alive to `notifyAddress` (at start and when woken from off).
    func announce() { common.announce(ssdpAdvert, to: options.notifyAddress) }

    /// Runs a background task that `stop()` cancels and awaits.
    func spawn(_ work: @escaping @Sendable () async -> Void) { common.spawn(work) }
}
