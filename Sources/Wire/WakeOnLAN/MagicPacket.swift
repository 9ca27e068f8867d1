/// The Wake-on-LAN "magic packet" payload (AMD Magic Packet white paper, 1995).
///
/// Six bytes of `0xFF` followed by the target MAC address sixteen times: 102 bytes, usually sent
/// as a UDP broadcast to port 9. A SecureOn password of 4 or 6 bytes may follow (106 or 108 bytes);
/// TVs do not use it, so `make` never adds one, but `parse` accepts it so the simulator's listener
/// treats such packets like any other.
public enum MagicPacket {
    /// Length of a packet without a SecureOn password.
    public static let length = 102

    /// The 102-byte payload that wakes `address`.
    public static func make(for address: MACAddress) -> [UInt8] {
        let mac = address.bytes
        var packet = [UInt8](repeating: 0xFF, count: 6)
        packet.reserveCapacity(length)
        for _ in 0..<16 { packet.append(contentsOf: mac) }
        return packet
    }

    /// The MAC address a received payload targets, or `nil` when it is not a magic packet.
    ///
    /// Accepts exactly 102 bytes, or 106/108 with a SecureOn password (ignored). The sixteen
    /// repetitions must all be the same usable address (see ``MACAddress``).
    public static func parse(_ bytes: some Collection<UInt8>) -> MACAddress? {
        guard bytes.count == length || bytes.count == length + 4 || bytes.count == length + 6 else { return nil }
        let packet = Array(bytes.prefix(length))
        guard packet[0..<6].allSatisfy({ $0 == 0xFF }) else { return nil }
        let mac = packet[6..<12]
        for repetition in 1..<16 {
            let start = 6 + repetition * 6
            guard packet[start..<start + 6].elementsEqual(mac) else { return nil }
        }
        return MACAddress(bytes: mac)
    }
}
