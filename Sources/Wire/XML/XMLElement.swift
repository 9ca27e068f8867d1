/// One attribute of an XML element, as written (prefix included) and with its value decoded.
public struct XMLAttribute: Equatable, Sendable {
    /// The qualified name as written, e.g. `id` or `xmlns:s`.
    public var name: String
    /// The value with references decoded and whitespace normalised (XML 1.0 §3.3.3).
    public var value: String

    /// An attribute, e.g. for building a tree to compare against.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// An element of a parsed XML document, with its subtree.
///
/// Roku's ECP answers are shallow trees of elements whose values are text
/// (`<power-mode>PowerOn</power-mode>`) or attributes (`<app id="12" type="appl">`);
/// UPnP SOAP answers put the result under prefixed names (`s:Envelope`, `u:GetVolumeResponse`),
/// reached with the `localName` lookups.
public struct XMLElement: Equatable, Sendable {
    /// The qualified name as written, e.g. `device-info` or `s:Body`.
    public var name: String
    /// Attributes in document order; namespace declarations (`xmlns:s`) are kept as attributes.
    public var attributes: [XMLAttribute]
    /// Child elements in document order.
    public var children: [XMLElement]
    /// The element's own character data: its text segments and CDATA sections concatenated,
    /// entities decoded, line ends normalised to LF (XML 1.0 §2.11); the text of children
    /// is not included. Whitespace is kept as is: see `trimmedText`.
    public var text: String

    /// An element, e.g. for building a tree to compare against.
    public init(
        name: String, attributes: [XMLAttribute] = [], children: [XMLElement] = [], text: String = ""
    ) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }

    /// The name without its namespace prefix: `GetVolumeResponse` for `u:GetVolumeResponse`.
    public var localName: Substring {
        guard let colon = name.utf8.lastIndex(of: UInt8(ascii: ":")) else { return name[...] }
        return name[name.utf8.index(after: colon)...]
    }

    /// `text` without leading and trailing XML whitespace (space, tab, CR, LF).
    public var trimmedText: String {
        XMLElement.trimmingWhitespace(text)
    }

    /// The value of the attribute with exactly this name, or `nil`.
    public func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The first direct child with exactly this name.
    public func firstChild(named name: String) -> XMLElement? {
        children.first { $0.name == name }
    }

    /// The direct children with exactly this name, in order.
    public func children(named name: String) -> [XMLElement] {
        children.filter { $0.name == name }
    }

    /// The trimmed text of the first direct child with this name; `nil` when there is no
    /// such child, `""` for an empty one such as `<keyed-developer-id/>`.
    public func childText(_ name: String) -> String? {
        firstChild(named: name)?.trimmedText
    }

    /// The first direct child whose local name matches, whatever its prefix.
    public func firstChild(localName: String) -> XMLElement? {
        children.first { $0.localName == localName }
    }

    /// The first element in this subtree (this one included, depth first, document order)
    /// whose local name matches: `envelope.firstDescendant(localName: "CurrentVolume")`.
    public func firstDescendant(localName: String) -> XMLElement? {
        if self.localName == localName { return self }
        for child in children {
            if let found = child.firstDescendant(localName: localName) { return found }
        }
        return nil
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    static func trimmingWhitespace(_ string: String) -> String {
        let utf8 = string.utf8
        guard let first = utf8.firstIndex(where: { !isWhitespace($0) }),
            let last = utf8.lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        if first == utf8.startIndex && utf8.index(after: last) == utf8.endIndex { return string }
        return String(string[first...last])
    }
}
