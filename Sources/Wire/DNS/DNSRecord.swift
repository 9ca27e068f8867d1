/// The record types DNS-SD discovery reads (RFC 6763): the rest are kept as bytes.
public enum DNSRecordType: Hashable, Sendable {
    case a, ptr, txt, aaaa, srv, any
    case other(UInt16)

    public init(code: UInt16) {
        switch code {
        case 1: self = .a
        case 12: self = .ptr
        case 16: self = .txt
        case 28: self = .aaaa
        case 33: self = .srv
        case 255: self = .any
        default: self = .other(code)
        }
    }

    public var code: UInt16 {
        switch self {
        case .a: 1
        case .ptr: 12
        case .txt: 16
        case .aaaa: 28
        case .srv: 33
        case .any: 255
        case .other(let code): code
        }
    }
}

/// A question: mDNS uses the class's top bit to ask for a unicast answer (QU, RFC 6762 §5.4).
public struct DNSQuestion: Equatable, Sendable {
    public var name: DNSName
    public var type: DNSRecordType
    public var unicastResponse: Bool
    /// 1 (IN) for everything here.
    public var recordClass: UInt16

    public init(name: DNSName, type: DNSRecordType, unicastResponse: Bool = false, recordClass: UInt16 = 1) {
        self.name = name
        self.type = type
        self.unicastResponse = unicastResponse
        self.recordClass = recordClass
    }
}

/// A resource record. mDNS uses the class's top bit as "cache flush" (RFC 6762 §10.2).
public struct DNSRecord: Equatable, Sendable {
    public enum Data: Equatable, Sendable {
        /// An IPv4 address, four bytes.
        case a([UInt8])
        /// An IPv6 address, sixteen bytes.
        case aaaa([UInt8])
        case ptr(DNSName)
        case srv(priority: UInt16, weight: UInt16, port: UInt16, target: DNSName)
        /// Character strings of 0 to 255 bytes each.
        case txt([[UInt8]])
        /// Any other type's data, as it came.
        case other([UInt8])
    }

    public var name: DNSName
    public var type: DNSRecordType
    public var cacheFlush: Bool
    public var recordClass: UInt16
    /// Seconds; 0 in mDNS says the record is gone (a goodbye, RFC 6762 §10.1).
    public var ttl: UInt32
    public var data: Data

    public init(
        name: DNSName, type: DNSRecordType, cacheFlush: Bool = false, recordClass: UInt16 = 1, ttl: UInt32,
        data: Data
    ) {
        self.name = name
        self.type = type
        self.cacheFlush = cacheFlush
        self.recordClass = recordClass
        self.ttl = ttl
        self.data = data
    }

    /// A TXT record's `key=value` attributes (RFC 6763 §6): keys compared without case, the
    /// first occurrence of a key wins, a key without `=` has no value (nil), an empty string
    /// or one starting with `=` is skipped. Empty for other types.
    public var txtAttributes: [String: [UInt8]?] {
        guard case .txt(let strings) = data else { return [:] }
        var attributes: [String: [UInt8]?] = [:]
        for string in strings {
            let equals = string.firstIndex(of: UInt8(ascii: "="))
            let key = String(decoding: DNSName.key(Array(string[..<(equals ?? string.endIndex)])), as: UTF8.self)
            guard !key.isEmpty, attributes[key] == nil else { continue }
            attributes[key] = .some(equals.map { Array(string[($0 + 1)...]) })
        }
        return attributes
    }
}
