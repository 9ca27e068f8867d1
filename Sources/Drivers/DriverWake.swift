import Clients
import Net
import Support
import Wire

/// Wake-on-LAN as every driver sends it (README › Configuration, `wol`).
enum DriverWake {
    /// Magic packets to every MAC in `macs` at every configured target, `wolRepeat` rounds. A
    /// failure is logged, not thrown: the TV may be awake already, or its power-on key may still work.
    static func send(to macs: [String], settings: DriverSettings, logger: Logger) async {
        let macs = macs.compactMap(MACAddress.init)
        var targets: [SocketAddress] = []
        for target in settings.wolTargets {
            do {
                targets.append(try SocketAddress(ip: target.host, port: target.port))
            } catch {
                logger.warning("Wake-on-LAN target \(target) is not an IP address; skipped")
            }
        }
        guard !macs.isEmpty, !targets.isEmpty else {
            logger.debug("Wake-on-LAN skipped: \(macs.isEmpty ? "no MAC address known" : "no target")")
            return
        }
        do {
            try await WakeOnLANSender.wake(macs, targets: targets, repeatCount: settings.wolRepeat)
            logger.debug("Wake-on-LAN sent to \(macs.count) MAC(s) at \(targets.count) target(s)")
        } catch {
            logger.warning("Wake-on-LAN failed: \(error)")
        }
    }
}
