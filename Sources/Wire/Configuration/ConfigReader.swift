/// Typed, validated access to the merged configuration tree. Every error names where the
/// value came from: the flag (`--poll-interval`), the variable (`TV2MQTT_LOG_LEVEL`) or the
/// file's key path (`mqtt.keepalive`). A vendor's configuration section is read with it too.
public struct ConfigReader: Sendable {
    /// Key path → where an overriding value came from (flags and environment variables).
    public let origins: [String: String]

    public init(origins: [String: String] = [:]) { self.origins = origins }

    public func label(_ path: String) -> String { origins[path] ?? path }

    public func fail(_ path: String, _ message: String) -> ConfigError {
        ConfigError("\(label(path)): \(message)")
    }

    /// The members of an object, after checking that every key is known (catches typos).
    public func object(_ value: JSONValue?, _ path: String, allowed: Set<String>) throws(ConfigError) -> [String:
        JSONValue]
    {
        guard let value else { return [:] }
        guard case .object(let members) = value else {
            throw path.isEmpty
                ? ConfigError("the configuration must be a JSON object") : fail(path, "expected an object")
        }
        for key in members.keys.sorted() where !allowed.contains(key) {
            let full = path.isEmpty ? key : "\(path).\(key)"
            let known = allowed.sorted().joined(separator: ", ")
            throw ConfigError("unknown key '\(full)' (known keys\(path.isEmpty ? "" : " of \(path)"): \(known))")
        }
        return members
    }

    public func string(_ value: JSONValue?, _ path: String) throws(ConfigError) -> String? {
        guard let value, !value.isNull else { return nil }
        guard let text = value.stringValue else { throw fail(path, "expected a string, got \(value.typeName)") }
        return text
    }

    public func bool(_ value: JSONValue?, _ path: String) throws(ConfigError) -> Bool? {
        guard let value, !value.isNull else { return nil }
        if let flag = value.boolValue { return flag }
        // Environment variables arrive as text.
        if let text = value.stringValue?.lowercased() {
            if ["true", "1", "yes", "on"].contains(text) { return true }
            if ["false", "0", "no", "off"].contains(text) { return false }
        }
        throw fail(
            path,
            "expected true or false, got \(value.typeName == "string" ? "'\(value.stringValue!)'" : value.typeName)")
    }

    public func number(_ value: JSONValue?, _ path: String, in range: ClosedRange<Double>) throws(ConfigError)
        -> Double?
    {
        guard let value, !value.isNull else { return nil }
        guard let number = value.doubleValue ?? value.stringValue.flatMap(Double.init) else {
            throw fail(path, "expected a number, got \(value.typeName)")
        }
        guard range.contains(number) else {
            throw fail(
                path,
                "must be between \(format(range.lowerBound)) and \(format(range.upperBound)), got \(format(number))")
        }
        return number
    }

    public func integer(_ value: JSONValue?, _ path: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        guard let number = try number(value, path, in: Double(range.lowerBound)...Double(range.upperBound)) else {
            return nil
        }
        guard number.rounded() == number else { throw fail(path, "must be a whole number, got \(number)") }
        return Int(number)
    }

    public func port(_ value: JSONValue?, _ path: String) throws(ConfigError) -> UInt16? {
        try integer(value, path, in: 1...65535).map { UInt16($0) }
    }

    public func choice(_ value: JSONValue?, _ path: String, _ options: [String]) throws(ConfigError) -> String? {
        guard let text = try string(value, path) else { return nil }
        guard options.contains(text) else {
            throw fail(path, "must be one of \(options.joined(separator: ", ")), got '\(text)'")
        }
        return text
    }

    /// A list of strings; a single string is accepted as a list of one.
    public func strings(_ value: JSONValue?, _ path: String) throws(ConfigError) -> [String]? {
        guard let value, !value.isNull else { return nil }
        if let single = value.stringValue { return [single] }
        guard let elements = value.arrayValue else { throw fail(path, "expected a list of strings") }
        var result: [String] = []
        for (index, element) in elements.enumerated() {
            guard let text = element.stringValue else {
                throw fail("\(path)[\(index)]", "expected a string, got \(element.typeName)")
            }
            result.append(text)
        }
        return result
    }

    /// An IPv4/IPv6 address or a DNS name (letters, digits, '-', '.').
    public func validateHost(_ host: String, _ path: String) throws(ConfigError) {
        if IPv4.parse(host) != nil || host.contains(":") && host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." })
        {
            return
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            host.utf8.count <= 253 && !labels.isEmpty
            && labels.allSatisfy { label in
                !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            }
        guard valid else { throw fail(path, "'\(host)' is not an IP address or host name") }
    }

    private func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}
