/// Reads names and records from a whole DNS message (pointers may go anywhere before them).
struct DNSReader {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// A big-endian word the caller has checked is there.
    mutating func uint16() -> UInt16 {
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    mutating func checkedUInt16(_ what: String) throws(WireError) -> UInt16 {
        guard bytes.count - offset >= 2 else { throw .malformed("DNS", "\(what) cut short") }
        return uint16()
    }

    mutating func checkedUInt32(_ what: String) throws(WireError) -> UInt32 {
        let high = try checkedUInt16(what)
        return UInt32(high) << 16 | UInt32(try checkedUInt16(what))
    }

    /// A name at `offset`, following pointers; `offset` moves past the name's own bytes.
    mutating func name() throws(WireError) -> DNSName {
        var labels: [[UInt8]] = []
        var position = offset
        var lowest = offset
        var jumped = false
        var length = 1
        while true {
            guard position < bytes.count else { throw .malformed("DNS", "a name cut short") }
            let byte = bytes[position]
            switch byte >> 6 {
            case 0:
                if byte == 0 {
                    if !jumped { offset = position + 1 }
                    return try DNSName(labels: labels)
                }
                let end = position + 1 + Int(byte)
                guard end <= bytes.count else { throw .malformed("DNS", "a label cut short") }
                length += 1 + Int(byte)
                guard length <= DNSName.maxBytes else {
                    throw .malformed("DNS", "a name over \(DNSName.maxBytes) bytes")
                }
                labels.append(Array(bytes[(position + 1)..<end]))
                position = end
            case 3:
                guard position + 1 < bytes.count else { throw .malformed("DNS", "a pointer cut short") }
                let target = Int(byte & 0x3F) << 8 | Int(bytes[position + 1])
                // Strictly below everything this name has read: a pointer can never loop.
                guard target < lowest else {
                    throw .malformed("DNS", "a pointer to \(target) that does not point back")
                }
                if !jumped { offset = position + 2 }
                jumped = true
                lowest = target
                position = target
            default:
                throw .malformed("DNS", "label type \(byte >> 6) (extended labels are obsolete)")
            }
        }
    }

    mutating func record() throws(WireError) -> DNSRecord {
        let name = try name()
        let type = DNSRecordType(code: try checkedUInt16("a record's type"))
        let recordClass = try checkedUInt16("a record's class")
        let ttl = try checkedUInt32("a record's TTL")
        let length = Int(try checkedUInt16("a record's data length"))
        guard bytes.count - offset >= length else {
            throw .malformed("DNS", "\(length) bytes of record data announced, \(bytes.count - offset) left")
        }
        let end = offset + length
        let data = try recordData(type, end: end)
        guard offset == end else { throw .malformed("DNS", "a \(type) record's data is not its announced length") }
        return DNSRecord(
            name: name, type: type, cacheFlush: recordClass & 0x8000 != 0, recordClass: recordClass & 0x7FFF,
            ttl: ttl, data: data)
    }

    private mutating func recordData(_ type: DNSRecordType, end: Int) throws(WireError) -> DNSRecord.Data {
        let length = end - offset
        switch type {
        case .a, .aaaa:
            let size = type == .a ? 4 : 16
            guard length == size else { throw .malformed("DNS", "an address of \(length) bytes (\(size))") }
            defer { offset = end }
            return type == .a ? .a(Array(bytes[offset..<end])) : .aaaa(Array(bytes[offset..<end]))
        case .ptr:
            return .ptr(try boundedName(end: end))
        case .srv:
            guard length >= 7 else { throw .malformed("DNS", "an SRV record of \(length) bytes") }
            let (priority, weight, port) = (uint16(), uint16(), uint16())
            return .srv(priority: priority, weight: weight, port: port, target: try boundedName(end: end))
        case .txt:
            var strings: [[UInt8]] = []
            while offset < end {
                let stringEnd = offset + 1 + Int(bytes[offset])
                guard stringEnd <= end else { throw .malformed("DNS", "a TXT string past its record") }
                strings.append(Array(bytes[(offset + 1)..<stringEnd]))
                offset = stringEnd
            }
            return .txt(strings)
        default:
            defer { offset = end }
            return .other(Array(bytes[offset..<end]))
        }
    }

    /// A name inside record data: its own bytes may not run past the data.
    private mutating func boundedName(end: Int) throws(WireError) -> DNSName {
        let name = try name()
        guard offset <= end else { throw .malformed("DNS", "a name runs past its record's data") }
        return name
    }
}
