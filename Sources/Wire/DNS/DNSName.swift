/// A domain name as DNS carries it (RFC 1035 §3.1): labels of 1 to 63 bytes, at most 255 bytes
/// in all. A DNS-SD instance label is free UTF-8 and may hold dots and spaces
/// ("Living Room TV"), so a name is its labels, not a dotted string. Names compare without
/// regard to ASCII case, as DNS does (RFC 4343).
public struct DNSName: Hashable, Sendable, CustomStringConvertible {
    public let labels: [[UInt8]]

    public static let maxLabelBytes = 63
    /// The wire form's length: each label with its length byte, and the root's zero byte.
    public static let maxBytes = 255

    /// - Throws: `malformed` for an empty or over-long label, or a name over 255 bytes.
    public init(labels: [[UInt8]]) throws(WireError) {
        for label in labels where label.isEmpty || label.count > Self.maxLabelBytes {
            throw .malformed("DNS", "a label of \(label.count) bytes (1 to 63)")
        }
        guard labels.reduce(1, { $0 + 1 + $1.count }) <= Self.maxBytes else {
            throw .malformed("DNS", "a name over \(Self.maxBytes) bytes")
        }
        self.labels = labels
    }

    /// `"_androidtvremote2._tcp.local"`: dots separate labels (a trailing dot is allowed).
    public init(_ dotted: String) throws(WireError) {
        let trimmed = dotted.hasSuffix(".") ? String(dotted.dropLast()) : dotted
        try self.init(
            labels: trimmed.isEmpty
                ? [] : trimmed.split(separator: ".", omittingEmptySubsequences: false).map { Array($0.utf8) })
    }

    /// `instance` (any text, dots included) as the first label of `service`.
    public init(instance: String, service: DNSName) throws(WireError) {
        try self.init(labels: [Array(instance.utf8)] + service.labels)
    }

    /// The first label as text (a DNS-SD instance name); nil for the root.
    public var firstLabel: String? { labels.first.map { String(decoding: $0, as: UTF8.self) } }

    /// Whether this name ends with `suffix` (or is it).
    public func hasSuffix(_ suffix: DNSName) -> Bool {
        labels.count >= suffix.labels.count
            && zip(labels.suffix(suffix.labels.count), suffix.labels).allSatisfy { Self.key($0) == Self.key($1) }
    }

    /// The name without its first label.
    public var parent: DNSName? {
        labels.isEmpty ? nil : try? DNSName(labels: Array(labels.dropFirst()))
    }

    /// Dotted, with a dot or backslash inside a label escaped (RFC 1035 §5.1).
    public var description: String {
        labels.map { label in
            String(decoding: label, as: UTF8.self).replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: ".", with: "\\.")
        }.joined(separator: ".")
    }

    public static func == (left: DNSName, right: DNSName) -> Bool {
        left.labels.count == right.labels.count && zip(left.labels, right.labels).allSatisfy { key($0) == key($1) }
    }

    public func hash(into hasher: inout Hasher) {
        for label in labels { hasher.combine(Self.key(label)) }
    }

    /// The label with ASCII letters folded to lower case.
    static func key(_ label: [UInt8]) -> [UInt8] {
        label.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
