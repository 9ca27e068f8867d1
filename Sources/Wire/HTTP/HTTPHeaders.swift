/// The header fields of an HTTP/1.1 message, in the order they were sent.
///
/// Field names compare case-insensitively (RFC 9110 §5.1). A name may repeat and repeated
/// fields keep their order (RFC 9110 §5.3), so this is a list of pairs rather than a
/// dictionary. Values are stored as received; the parser has already removed the optional
/// whitespace around them (RFC 9112 §5.1).
public struct HTTPHeaders: Sequence, Equatable, Sendable, ExpressibleByDictionaryLiteral,
    CustomStringConvertible
{
    /// One field line: its name as written and its value.
    public typealias Element = (name: String, value: String)

    private var fields: [Element]

    /// An empty header section.
    public init() {
        fields = []
    }

    /// Header fields in the given order; repeated names are kept.
    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// `["Host": "10.0.0.2:8060", "Accept": "*/*"]`, in the order written; repeated names are kept.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// Number of field lines.
    public var count: Int { fields.count }
    /// Whether there are no field lines.
    public var isEmpty: Bool { fields.isEmpty }

    /// The field lines in order.
    public func makeIterator() -> IndexingIterator<[Element]> {
        fields.makeIterator()
    }

    /// The value of the first field with this name (case-insensitive), or `nil`.
    ///
    /// Setting a value replaces every field of that name (see `set(name:value:)`);
    /// setting `nil` removes them.
    public subscript(name: String) -> String? {
        get { fields.first { HTTPSyntax.equalsIgnoringCase($0.name, name) }?.value }
        set {
            if let newValue {
                set(name: name, value: newValue)
            } else {
                remove(name: name)
            }
        }
    }

    /// Every value of the fields with this name, in order.
    public func values(for name: String) -> [String] {
        fields.compactMap { HTTPSyntax.equalsIgnoringCase($0.name, name) ? $0.value : nil }
    }

    /// Whether at least one field has this name.
    public func contains(_ name: String) -> Bool {
        fields.contains { HTTPSyntax.equalsIgnoringCase($0.name, name) }
    }

    /// Appends a field line, keeping any existing ones of the same name.
    public mutating func add(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field of this name by one line with `value`, at the position of the
    /// first one (or at the end when there was none).
    public mutating func set(name: String, value: String) {
        guard let first = fields.firstIndex(where: { HTTPSyntax.equalsIgnoringCase($0.name, name) }) else {
            fields.append((name: name, value: value))
            return
        }
        fields[first].value = value
        var index = fields.endIndex - 1
        while index > first {
            if HTTPSyntax.equalsIgnoringCase(fields[index].name, name) { fields.remove(at: index) }
            index -= 1
        }
    }

    /// Removes every field with this name.
    public mutating func remove(name: String) {
        fields.removeAll { HTTPSyntax.equalsIgnoringCase($0.name, name) }
    }

    /// Whether the comma-separated list in the fields named `name` holds `token`,
    /// ignoring case (RFC 9110 §5.6.1 lists, §7.6.1 `Connection`).
    ///
    /// `Connection: keep-alive, Upgrade` contains the token `upgrade`.
    public func containsToken(_ token: String, in name: String) -> Bool {
        for field in fields where HTTPSyntax.equalsIgnoringCase(field.name, name) {
            for element in HTTPSyntax.listElements(field.value)
            where HTTPSyntax.equalsIgnoringCase(element.utf8, token.utf8) {
                return true
            }
        }
        return false
    }

    /// Checks every field line can be sent as is.
    ///
    /// - Throws: `WireError` `.malformed` when a name is not an RFC 9110 §5.6.2 token or a
    ///   value holds CR, LF, NUL or another control (RFC 9110 §5.5): such a value would let
    ///   a caller inject extra header lines or a second message.
    public func validate() throws(WireError) {
        for field in fields {
            guard HTTPSyntax.isToken(field.name.utf8) else {
                throw .malformed("HTTP", "header name \(String(reflecting: field.name)) is not a token")
            }
            guard field.value.utf8.allSatisfy(HTTPSyntax.isFieldValueByte) else {
                throw .malformed("HTTP", "value of header \(field.name) contains a control character")
            }
        }
    }

    /// Appends `name: value\r\n` for every field (RFC 9112 §5). Call `validate()` first.
    func write(to bytes: inout [UInt8]) {
        for field in fields {
            bytes.append(contentsOf: field.name.utf8)
            bytes.append(HTTPSyntax.colon)
            bytes.append(HTTPSyntax.space)
            bytes.append(contentsOf: field.value.utf8)
            bytes.append(contentsOf: HTTPSyntax.crlf)
        }
    }

    /// Equal when the same names (ignoring case) carry the same values in the same order.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy {
                $0.value == $1.value && HTTPSyntax.equalsIgnoringCase($0.name, $1.name)
            }
    }

    /// `Name: value` lines, for logs and test failures.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}
