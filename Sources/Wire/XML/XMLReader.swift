/// A small, non-validating XML 1.0 reader that builds an element tree.
///
/// It reads what TVs send: Roku ECP answers, UPnP descriptions and SOAP envelopes, all
/// UTF-8. It checks well-formedness (XML 1.0 §2.1): one root element, matching and closed
/// tags, unique attributes, known entities, valid characters. Comments and processing
/// instructions are skipped. A `DOCTYPE` is skipped, but one with an internal subset is
/// refused, so entity declarations are never expanded ("billion laughs" cannot happen).
/// It works on bytes, never on `Character`s.
public enum XMLReader {
    /// Parses a whole document and returns its root element.
    ///
    /// - Throws: `WireError` `.malformed` for input that is not well-formed XML or not
    ///   valid UTF-8; `.unsupported` for a declared encoding other than UTF-8 or ASCII, or
    ///   a DTD internal subset; `.tooLarge` past `limits`.
    public static func parse(_ bytes: some Collection<UInt8>, limits: XMLLimits = .default) throws(WireError)
        -> XMLElement
    {
        guard bytes.count <= limits.maxInputBytes else {
            throw .tooLarge("XML", "document exceeds \(limits.maxInputBytes) bytes")
        }
        return try parse(Array(bytes), limits: limits)
    }

    /// Parses a whole document held in an array (no copy); see `parse(_:limits:)`.
    public static func parse(_ bytes: [UInt8], limits: XMLLimits = .default) throws(WireError) -> XMLElement {
        guard bytes.count <= limits.maxInputBytes else {
            throw .tooLarge("XML", "document exceeds \(limits.maxInputBytes) bytes")
        }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(WireError) -> XMLElement in
            var parser = XMLParser(bytes: buffer, limits: limits)
            return try parser.parseDocument()
        }
    }

    /// Parses a document held in a string.
    public static func parse(_ string: String, limits: XMLLimits = .default) throws(WireError) -> XMLElement {
        try parse(Array(string.utf8), limits: limits)
    }
}
