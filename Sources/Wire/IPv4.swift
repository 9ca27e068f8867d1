/// Dotted-quad IPv4 text ⇄ a 32-bit number.
public enum IPv4 {
    public static func parse(_ text: String) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), let octet = UInt8(part),
                part.count == 1 || !part.hasPrefix("0")
            else { return nil }
            value = value << 8 | UInt32(octet)
        }
        return value
    }
}
