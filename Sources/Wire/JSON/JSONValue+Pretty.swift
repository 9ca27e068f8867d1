extension JSONValue {
    /// Indented JSON with sorted keys, for people (`tv2mqtt check-config`, the state file).
    public func prettyPrinted(indent: String = "  ") -> String {
        var out: [UInt8] = []
        writePretty(into: &out, level: 0, indent: indent)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `prettyPrinted()` as it reads nested `level` deep (its inner lines indented
    /// `level + 1` times): for a document written in pieces, one member at a time.
    public func writePretty(into out: inout [UInt8], level: Int, indent: String = "  ") {
        let inner = Array(String(repeating: indent, count: level + 1).utf8)
        let outer = Array(String(repeating: indent, count: level).utf8)
        switch self {
        case .array(let elements) where !elements.isEmpty:
            out += "[\n".utf8
            for (index, element) in elements.enumerated() {
                out += inner
                element.writePretty(into: &out, level: level + 1, indent: indent)
                out += (index + 1 < elements.count ? ",\n" : "\n").utf8
            }
            out += outer
            out.append(UInt8(ascii: "]"))
        case .object(let members) where !members.isEmpty:
            out += "{\n".utf8
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                out += inner
                Self.writeString(key, into: &out)
                out += ": ".utf8
                members[key]!.writePretty(into: &out, level: level + 1, indent: indent)
                out += (index + 1 < keys.count ? ",\n" : "\n").utf8
            }
            out += outer
            out.append(UInt8(ascii: "}"))
        default:
            write(into: &out)
        }
    }
}
