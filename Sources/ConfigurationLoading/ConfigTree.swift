import Wire

/// The configuration as a JSON tree, with where overriding values came from.
struct ConfigTree {
    var root: JSONValue = .object([:])
    var origins: [String: String] = [:]

    mutating func set(_ path: [String], _ value: JSONValue, origin: String) {
        root = Self.setting(root, path[...], value)
        origins[path.joined(separator: ".")] = origin
    }

    /// Appends to a list (creating it), for repeatable flags that add rather than replace.
    mutating func append(_ path: [String], _ value: JSONValue, origin: String) {
        var list: [JSONValue] = []
        var node: JSONValue? = root
        for key in path { node = node?[key] }
        if let existing = node?.arrayValue { list = existing }
        origins["\(path.joined(separator: "."))[\(list.count)]"] = origin
        list.append(value)
        root = Self.setting(root, path[...], .array(list))
    }

    private static func setting(_ node: JSONValue, _ path: ArraySlice<String>, _ value: JSONValue) -> JSONValue {
        guard let key = path.first else { return value }
        var members = node.objectValue ?? [:]
        members[key] = setting(members[key] ?? .object([:]), path.dropFirst(), value)
        return .object(members)
    }
}
