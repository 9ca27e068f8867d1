extension JSONValue {
    /// Indented JSON with sorted keys, for people (`tv2mqtt check-config`).
    public func prettyPrinted(indent: String = "  ") -> String {
        var out = ""
        writePretty(into: &out, level: 0, indent: indent)
        return out
    }

    private func writePretty(into out: inout String, level: Int, indent: String) {
        let inner = String(repeating: indent, count: level + 1)
        let outer = String(repeating: indent, count: level)
        switch self {
        case .array(let elements) where !elements.isEmpty:
            out += "[\n"
            for (index, element) in elements.enumerated() {
                out += inner
                element.writePretty(into: &out, level: level + 1, indent: indent)
                out += index + 1 < elements.count ? ",\n" : "\n"
            }
            out += outer + "]"
        case .object(let members) where !members.isEmpty:
            out += "{\n"
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                out += inner
                Self.writeString(key, into: &out)
                out += ": "
                members[key]!.writePretty(into: &out, level: level + 1, indent: indent)
                out += index + 1 < keys.count ? ",\n" : "\n"
            }
            out += outer + "}"
        default:
            out += serialized()
        }
    }
}
