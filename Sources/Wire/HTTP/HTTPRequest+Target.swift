/// The parts of a request target (RFC 9112 §3.2), for routing in the simulated TVs.
extension HTTPRequest {
    /// The path of the target, still percent-encoded: everything before `?`.
    ///
    /// Kept encoded on purpose: decoding first would turn `Lit_%2F` into a path separator.
    /// Use `pathSegments` for decoded segments. For an absolute-form target
    /// (`http://host/path`, RFC 9112 §3.2.2) this is the path after the authority.
    public var path: Substring {
        var rest = target[...]
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
        if let query = rest.firstIndex(of: "?") { rest = rest[..<query] }
        if !rest.hasPrefix("/"), let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") {
            let authority = rest[colon...].dropFirst(3)
            rest = authority.firstIndex(of: "/").map { authority[$0...] } ?? "/"
        }
        return rest
    }

    /// The query of the target, still encoded, without `?`; `nil` when there is none.
    public var query: Substring? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        let rest = target[target.index(after: mark)...]
        return rest.firstIndex(of: "#").map { rest[..<$0] } ?? rest
    }

    /// The path's segments, each percent-decoded: `/keypress/Lit_%E2%82%AC` gives
    /// `["keypress", "Lit_€"]`. Empty segments (`//`) are dropped.
    ///
    /// - Throws: `WireError` `.malformed` for a broken `%` sequence or invalid UTF-8.
    public var pathSegments: [String] {
        get throws(WireError) {
            var segments: [String] = []
            for segment in path.split(separator: "/") {
                segments.append(try PercentEncoding.decode(segment))
            }
            return segments
        }
    }

    /// The query's `name=value` pairs in order, decoded with
    /// `PercentEncoding.decodeQueryComponent(_:)`; a pair without `=` has an empty value.
    ///
    /// - Throws: `WireError` `.malformed` for a broken `%` sequence or invalid UTF-8.
    public var queryItems: [(name: String, value: String)] {
        get throws(WireError) {
            guard let query else { return [] }
            var items: [(name: String, value: String)] = []
            for pair in query.split(separator: "&") {
                let equals = pair.firstIndex(of: "=")
                let name = equals.map { pair[..<$0] } ?? pair
                let value = equals.map { pair[pair.index(after: $0)...] } ?? ""
                items.append(
                    (try PercentEncoding.decodeQueryComponent(name), try PercentEncoding.decodeQueryComponent(value)))
            }
            return items
        }
    }
}
