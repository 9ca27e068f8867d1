/// An IPv4 network to probe, e.g. `192.168.1.0/24`.
public struct CIDR: Sendable, Equatable, CustomStringConvertible {
    public var network: UInt32
    public var prefixLength: Int

    public init(network: UInt32, prefixLength: Int) { (self.network, self.prefixLength) = (network, prefixLength) }

    public var description: String {
        "\(network >> 24).\(network >> 16 & 0xFF).\(network >> 8 & 0xFF).\(network & 0xFF)/\(prefixLength)"
    }

    /// Every host address (network and broadcast addresses left out for prefixes below /31).
    public var hosts: [String] {
        let size = UInt64(1) << UInt64(32 - prefixLength)
        let range: Range<UInt64> = size > 2 ? 1..<size - 1 : 0..<size
        return range.map { offset in
            let address = network &+ UInt32(offset)
            return "\(address >> 24).\(address >> 16 & 0xFF).\(address >> 8 & 0xFF).\(address & 0xFF)"
        }
    }
}
