/// One `Name: value` line of an SSDP message, as received (name case kept, value trimmed).
public struct SSDPHeaderField: Equatable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// The kind of a NOTIFY, from its `NTS` header (UPnP Device Architecture 2.0 §1.2.2, §1.2.3, §1.2.4).
public enum SSDPNotificationSubtype: String, Sendable, CaseIterable {
    /// The device or service is available; LOCATION says where.
    case alive = "ssdp:alive"
    /// The device or service is leaving the network.
    case byebye = "ssdp:byebye"
    /// The device's description changed (new BOOTID).
    case update = "ssdp:update"
}

/// The header fields of an SSDP message, looked up case-insensitively (RFC 9110 §5.1; the UPnP
/// Device Architecture 2.0 §1.1.2 says field names are case-insensitive, and Roku and Samsung mix
/// `LOCATION`, `Location` and `location`).
///
/// Fields keep their order; when a name repeats, the typed accessors and the subscript see the first.
public struct SSDPHeaders: Equatable, Sendable {
    public private(set) var fields: [SSDPHeaderField]

    public init(_ fields: [SSDPHeaderField] = []) {
        self.fields = fields
    }

    /// Appends a field.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(SSDPHeaderField(name: name, value: value))
    }

    /// The value of the first field called `name` (any case), or `nil`.
    public subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Every value of the fields called `name` (any case), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// `LOCATION`: the URL of the device description (for Roku, the ECP root `http://<ip>:8060/`).
    public var location: String? { self["location"] }

    /// `LOCATION` parsed as a URL, or `nil` when absent or not an acceptable URL (see `URLParts`).
    public var locationURL: URLParts? { location.flatMap { try? URLParts(parsing: $0) } }

    /// `ST`: the search target of an M-SEARCH or of the response to one.
    public var searchTarget: String? { self["st"] }

    /// `NT`: the notification type of a NOTIFY (the NOTIFY counterpart of `ST`).
    public var notificationType: String? { self["nt"] }

    /// `NTS`: alive, byebye or update; `nil` when absent or unknown. Matched case-insensitively.
    public var notificationSubtype: SSDPNotificationSubtype? {
        self["nts"].flatMap { SSDPNotificationSubtype(rawValue: $0.lowercased()) }
    }

    /// `USN`: the unique service name, e.g. `uuid:roku:ecp:P0A070000007`.
    public var usn: String? { self["usn"] }

    /// The device's UDN: the `USN` up to any `::` (UPnP DA 2.0 §1.1.4), e.g. `uuid:roku:ecp:P0A070000007`
    /// or `uuid:0175c106-5400-10f8-802d-b0a7374360b7`.
    public var udn: String? {
        guard let usn else { return nil }
        guard let range = usn.firstRange(of: "::") else { return usn }
        return String(usn[..<range.lowerBound])
    }

    /// `SERVER`: `OS/version UPnP/1.x product/version`, free text in practice.
    public var server: String? { self["server"] }

    /// Seconds the advertisement stays valid, from `CACHE-CONTROL: max-age=N` (RFC 9111 §5.2.2.1).
    ///
    /// Tolerant of what devices send: any case, spaces around `=`, a quoted number, and other
    /// directives before or after (`no-cache="Ext", max-age = 1800`). `nil` when absent or not a
    /// number of at most nine digits.
    public var maxAge: Int? {
        guard let value = self["cache-control"] else { return nil }
        for directive in value.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, Self.trimmed(parts[0]).lowercased() == "max-age" else { continue }
            var number = Self.trimmed(parts[1])
            if number.count >= 2, number.hasPrefix("\""), number.hasSuffix("\"") {
                number = number.dropFirst().dropLast()
            }
            if let seconds = Self.smallNumber(number) { return seconds }
        }
        return nil
    }

    /// `MX`: the most seconds a device may wait before answering an M-SEARCH, as sent (not clamped).
    public var mx: Int? { self["mx"].flatMap { Self.smallNumber(Self.trimmed($0[...])) } }

    /// `MAN` without its quotes: `ssdp:discover` for an M-SEARCH.
    public var man: String? {
        guard let value = self["man"] else { return nil }
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return value }
        return String(value.dropFirst().dropLast())
    }

    /// The message bytes: `startLine`, each field as `Name: value`, CRLF line ends and the closing
    /// blank line. CR, LF and NUL are dropped from names and values so a value cannot inject a field.
    func encode(startLine: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + fields.count * 48)
        bytes.append(contentsOf: startLine.utf8)
        bytes.append(contentsOf: [0x0D, 0x0A])
        for field in fields {
            Self.appendSanitised(field.name, to: &bytes)
            bytes.append(contentsOf: [UInt8(ascii: ":"), 0x20])
            Self.appendSanitised(field.value, to: &bytes)
            bytes.append(contentsOf: [0x0D, 0x0A])
        }
        bytes.append(contentsOf: [0x0D, 0x0A])
        return bytes
    }

    private static func appendSanitised(_ text: String, to bytes: inout [UInt8]) {
        for byte in text.utf8 where byte != 0x0D && byte != 0x0A && byte != 0x00 { bytes.append(byte) }
    }

    private static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.elementsEqual(rhs.utf8) { a, b in
            a == b || (a | 0x20 == b | 0x20 && a | 0x20 >= 0x61 && a | 0x20 <= 0x7A)
        }
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }),
            let last = text.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return text[first...last]
    }

    private static func smallNumber(_ text: Substring) -> Int? {
        guard (1...9).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }
}
