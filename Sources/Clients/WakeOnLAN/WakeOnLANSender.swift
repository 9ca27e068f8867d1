import Net
import Wire

/// Sends Wake-on-LAN magic packets (README › Configuration, `wol`): `repeatCount` rounds to every
/// target for every MAC, a short pause between rounds because a sleeping NIC may miss one.
public enum WakeOnLANSender {
    public static func wake(
        _ macs: [MACAddress], targets: [SocketAddress], repeatCount: Int = 3, interval: Duration = .milliseconds(100)
    ) async throws {
        guard !macs.isEmpty, !targets.isEmpty else { return }
        let socket = try UDPSocket.bind(host: targets.contains(where: \.isIPv6) ? "::" : "0.0.0.0", port: 0)
        defer { socket.close() }
        socket.enableBroadcast()
        let packets = macs.map(MagicPacket.make)
        for round in 0..<max(1, repeatCount) {
            for packet in packets {
                for target in targets { try await socket.send(packet, to: target) }
            }
            if round + 1 < repeatCount { try await EventLoop.sleep(for: interval) }
        }
    }
}
