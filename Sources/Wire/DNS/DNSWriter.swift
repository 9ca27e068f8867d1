/// Writes a DNS message, compressing each name against the suffixes already written.
struct DNSWriter {
    var bytes: [UInt8] = []
    /// Where each suffix already written starts (only offsets a pointer can reach).
    private var suffixes: [DNSName: Int] = [:]

    mutating func uint16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func uint32(_ value: UInt32) {
        uint16(UInt16(value >> 16))
        uint16(UInt16(truncatingIfNeeded: value))
    }

    mutating func name(_ name: DNSName) {
        var labels = name.labels[...]
        while !labels.isEmpty {
            let suffix = try? DNSName(labels: Array(labels))
            if let suffix, let offset = suffixes[suffix] {
                uint16(0xC000 | UInt16(offset))
                return
            }
            if let suffix, bytes.count < 0x4000 { suffixes[suffix] = bytes.count }
            let label = labels.removeFirst()
            bytes.append(UInt8(label.count))
            bytes += label
        }
        bytes.append(0)
    }

    mutating func record(_ record: DNSRecord) {
        name(record.name)
        uint16(record.type.code)
        uint16(record.recordClass | (record.cacheFlush ? 0x8000 : 0))
        uint32(record.ttl)
        let lengthAt = bytes.count
        uint16(0)
        switch record.data {
        case .a(let address), .aaaa(let address), .other(let address): bytes += address
        case .ptr(let target): name(target)
        case .srv(let priority, let weight, let port, let target):
            uint16(priority)
            uint16(weight)
            uint16(port)
            name(target)
        case .txt(let strings):
            // RFC 6763 §6.1 wants at least one string (`[[]]` for none); what is given is written.
            for string in strings {
                let kept = string.prefix(255)  // a character string's most
                bytes.append(UInt8(kept.count))
                bytes += kept
            }
        }
        let length = UInt16(clamping: bytes.count - lengthAt - 2)
        bytes[lengthAt] = UInt8(length >> 8)
        bytes[lengthAt + 1] = UInt8(truncatingIfNeeded: length)
    }
}
