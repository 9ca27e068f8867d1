import Net
import Wire

/// What a Roku says over SSDP, and what wakes it (the sockets are `SimHost`'s).
extension RokuSimulator {
    static let searchTarget = "roku:ecp"

    var usn: String { "uuid:roku:ecp:\(identity.serial)" }

    var ssdpAdvert: SimSSDPAdvert {
        SimSSDPAdvert(
            host: options.host, searchTarget: Self.searchTarget, usn: usn, location: location,
            server: RokuCatalog.serverHeader, maxAge: 3600, answerWindow: options.ssdpAnswerWindow)
    }

    func startSSDP() throws {
        // Off (unreachable) or stopped: no SSDP answers.
        try common.startSSDP(on: options.ssdpPort, ssdpAdvert) { [weak self] in
            guard let self else { return true }
            return core.withLock { $0.state.power == .off } || common.isStopped
        }
    }

    func startWakeOnLAN() throws {
        // A stick has Wi-Fi only; a TV wakes on either MAC.
        let macs = [identity.wifiMAC] + (kind == .tv ? [identity.ethernetMAC] : [])
        try common.startWakeOnLAN(on: options.wolPort, macs: macs) { [self] mac, from in
            record("wol", ["mac": .string(mac), "from": .string(from.ip)])
            wake()
        }
    }

    /// Sends NOTIFY ssdp:alive to `notifyAddress` (at start and when woken).
    func announce() {
        // Not inside an ECP-2 answer's held log (`heldLog`): what it logs later is logged then.
        Self.$heldLog.withValue(nil) { common.announce(ssdpAdvert, to: options.notifyAddress) }
    }
}
