/// One pass over a document checking that it is UTF-8 made of XML characters, so that
/// the parser can then make strings from byte ranges without repair.
enum XMLUTF8 {
    private static let highBits: UInt64 = 0x8080_8080_8080_8080
    private static let ones: UInt64 = 0x0101_0101_0101_0101

    /// - Throws: `.malformed` for an invalid UTF-8 sequence (overlong forms, surrogates,
    ///   code points above U+10FFFF, truncated sequences: Unicode §3.9 Table 3-7) or a code
    ///   point outside `Char` (XML 1.0 §2.2: C0 controls but tab, LF, CR; U+FFFE, U+FFFF).
    static func validate(_ bytes: UnsafeBufferPointer<UInt8>) throws(WireError) {
        var index = 0
        let count = bytes.count
        while index < count {
            // Eight ASCII bytes at a time when none is a control (any byte below 0x20 sets
            // a high bit in `word - 0x20…20` where the byte itself has none).
            if index + 8 <= count, let base = bytes.baseAddress {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & highBits == 0 && (word &- ones &* 0x20) & ~word & highBits == 0 {
                    index += 8
                    continue
                }
            }
            let lead = bytes[index]
            if lead < 0x80 {
                guard lead >= 0x20 || lead == 0x09 || lead == 0x0A || lead == 0x0D else {
                    throw .malformed("XML", "control character at byte \(index)")
                }
                index += 1
                continue
            }
            let length: Int
            var value: UInt32
            switch lead {
            case 0xC2...0xDF:
                length = 2
                value = UInt32(lead & 0x1F)
            case 0xE0...0xEF:
                length = 3
                value = UInt32(lead & 0x0F)
            case 0xF0...0xF4:
                length = 4
                value = UInt32(lead & 0x07)
            default:
                throw invalid(at: index)
            }
            guard index + length <= count else { throw invalid(at: index) }
            for offset in 1..<length {
                let continuation = bytes[index + offset]
                guard continuation & 0xC0 == 0x80 else { throw invalid(at: index) }
                value = value << 6 | UInt32(continuation & 0x3F)
            }
            switch length {
            case 3:
                guard value >= 0x800, !(0xD800...0xDFFF).contains(value) else { throw invalid(at: index) }
                guard value != 0xFFFE && value != 0xFFFF else {
                    throw .malformed("XML", "U+FFFE or U+FFFF at byte \(index)")
                }
            case 4:
                guard value >= 0x10000 && value <= 0x10FFFF else { throw invalid(at: index) }
            default:
                break
            }
            index += length
        }
    }

    private static func invalid(at index: Int) -> WireError {
        .malformed("XML", "invalid UTF-8 at byte \(index)")
    }
}
