/// Fixed-width lowercase hex, for the ids and MACs simulated TVs derive from their address.
enum SimHex {
    /// The low `width` hex digits of `value`, zero-padded.
    static func digits(_ value: UInt32, _ width: Int) -> String {
        let text = String(value & (width >= 8 ? 0xFFFF_FFFF : (1 << (4 * width)) - 1), radix: 16)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// A version-4-shaped UUID from a hash and a seed, its node the MAC bytes, as real TVs'
    /// UDNs end in their MAC; `variant` tells vendors apart ("a", "b").
    static func uuid(hash: UInt32, seed: UInt32, variant: String, node: [UInt8]) -> String {
        "\(digits(hash, 8))-\(digits(hash >> 16, 4))-4\(digits(hash & 0xFFF, 3))-"
            + "\(variant)\(digits(seed & 0xFFF, 3))-\(node.map { digits(UInt32($0), 2) }.joined())"
    }
}
