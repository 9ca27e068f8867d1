/// The XOR masking of RFC 6455 §5.3, applied to whole frames' payloads in place.
enum WebSocketMask {
    /// XORs `bytes[range]` with the four-byte `key`, the key's first byte lining up with
    /// `range.lowerBound` (octet i of the payload is XORed with key octet i mod 4, §5.3).
    ///
    /// Works eight bytes at a time: the key repeated twice is one `UInt64` whose bytes in memory are
    /// k0 k1 k2 k3 k0 k1 k2 k3 on any byte order, so word-wise XOR equals the byte-wise definition.
    static func apply(key: (UInt8, UInt8, UInt8, UInt8), to bytes: inout [UInt8], range: Range<Int>) {
        guard !range.isEmpty else { return }
        // k0 in the lowest byte: the little-endian reading of the key as it sits in memory.
        let littleEndianKey = UInt32(key.0) | UInt32(key.1) << 8 | UInt32(key.2) << 16 | UInt32(key.3) << 24
        let key32 = UInt32(littleEndian: littleEndianKey)
        let key64 = UInt64(key32) | UInt64(key32) << 32
        bytes.withUnsafeMutableBytes { buffer in
            var offset = range.lowerBound
            let end = range.upperBound
            while end - offset >= 8 {
                let word = buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                buffer.storeBytes(of: word ^ key64, toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            // Fewer than eight bytes remain, starting at key phase 0 (whole words were consumed).
            var shift: UInt32 = 0
            while offset < end {
                buffer[offset] ^= UInt8(truncatingIfNeeded: littleEndianKey >> shift)
                shift = (shift + 8) & 31
                offset += 1
            }
        }
    }
}
