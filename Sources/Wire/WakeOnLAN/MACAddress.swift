/// A 48-bit Ethernet/Wi-Fi address (IEEE 802 EUI-48) that can be the target of a Wake-on-LAN packet.
///
/// Accepted spellings, case-insensitive, each with exactly twelve hex digits:
/// `aa:bb:cc:dd:ee:ff`, `aa-bb-cc-dd-ee-ff`, `aabb.ccdd.eeff` (Cisco) and `aabbccddeeff`.
/// The canonical form (``description``, and the `Codable` representation) is lowercase with colons,
/// the form Roku `device-info` and Samsung `/api/v2/` report.
///
/// Group addresses are refused: the all-zero address, broadcast `ff:ff:ff:ff:ff:ff` and any address
/// with the I/G (multicast) bit set (IEEE 802-2014 §8.2). A network card's own address is always
/// an individual one, so such a value can only be a typo or a placeholder, and a magic packet
/// addressed to it would wake nothing.
public struct MACAddress: Hashable, Sendable, CustomStringConvertible {
    /// The six octets in transmission order, packed into the low 48 bits.
    private let value: UInt64

    /// Parses one of the accepted spellings; `nil` for anything else or for a group/zero address.
    public init?(_ text: String) {
        let utf8 = Array(text.utf8)
        let digits: [UInt8]
        switch utf8.count {
        case 12:
            digits = utf8
        case 14:
            // aabb.ccdd.eeff
            guard utf8[4] == UInt8(ascii: "."), utf8[9] == UInt8(ascii: ".") else { return nil }
            digits = Array(utf8[0..<4] + utf8[5..<9] + utf8[10..<14])
        case 17:
            let separator = utf8[2]
            guard separator == UInt8(ascii: ":") || separator == UInt8(ascii: "-") else { return nil }
            for position in stride(from: 2, to: 17, by: 3) where utf8[position] != separator { return nil }
            digits = (0..<6).flatMap { utf8[$0 * 3..<$0 * 3 + 2] }
        default:
            return nil
        }
        var value: UInt64 = 0
        for digit in digits {
            guard let nibble = HexDigits.value(digit) else { return nil }
            value = value << 4 | UInt64(nibble)
        }
        self.init(value: value)
    }

    /// The address made of exactly six octets; `nil` for another count or a group/zero address.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 6 else { return nil }
        self.init(value: bytes.reduce(0) { $0 << 8 | UInt64($1) })
    }

    private init?(value: UInt64) {
        // I/G bit: the least significant bit of the first octet (IEEE 802-2014 §8.2).
        guard value != 0, value >> 40 & 0x01 == 0 else { return nil }
        self.value = value
    }

    /// The six octets in transmission order.
    public var bytes: [UInt8] {
        (0..<6).map { UInt8(truncatingIfNeeded: value >> UInt64(40 - $0 * 8)) }
    }

    /// Lowercase, colon-separated: `aa:bb:cc:dd:ee:ff`.
    public var description: String {
        let hex: [Character] = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(17)
        for (index, octet) in bytes.enumerated() {
            if index > 0 { text.append(":") }
            text.append(hex[Int(octet >> 4)])
            text.append(hex[Int(octet & 0x0F)])
        }
        return text
    }

}

extension MACAddress: Codable {
    /// Decodes the canonical (or any accepted) string form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let address = MACAddress(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not a usable MAC address")
        }
        self = address
    }

    /// Encodes the canonical string form, `aa:bb:cc:dd:ee:ff`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
