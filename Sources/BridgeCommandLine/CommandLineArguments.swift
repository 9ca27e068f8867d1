import ConfigurationLoading
import Wire

/// One flag a command accepts.
public struct FlagSpec: Sendable {
    public let name: String
    /// The value's placeholder in help text ("FILE"); nil for a switch without a value.
    public let value: String?
    public let repeatable: Bool
    public let help: String

    public init(_ name: String, value: String? = nil, repeatable: Bool = false, help: String) {
        self.name = name
        self.value = value
        self.repeatable = repeatable
        self.help = help
    }
}

/// The flags and positional arguments of one command line, parsed against the command's specs.
public struct ParsedArguments: Sendable, Equatable, FlagValues {
    /// Flag name (without dashes) → its values in order (empty strings for switches).
    public var flags: [String: [String]] = [:]
    public var positionals: [String] = []
    /// Flag names in the order they appeared (for precedence among repeats).
    public var order: [String] = []

    public func has(_ name: String) -> Bool { flags[name] != nil }
    public func value(_ name: String) -> String? { flags[name]?.last }
    public func values(_ name: String) -> [String] { flags[name] ?? [] }

    /// Parses `--flag value`, `--flag=value` and switches; `--help`/`-h` is recorded as "help".
    /// Fails on an unknown flag or a missing value, naming it.
    public static func parse(_ arguments: [String], specs: [FlagSpec], command: String) throws(ConfigError)
        -> ParsedArguments
    {
        var parsed = ParsedArguments()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--help" || argument == "-h" {
                parsed.flags["help"] = [""]
                continue
            }
            if argument == "--" {
                parsed.positionals += arguments[index...]
                break
            }
            guard argument.hasPrefix("--"), argument.count > 2 else {
                if argument.hasPrefix("-") && argument != "-" {
                    throw ConfigError("unknown flag '\(argument)' for '\(command)' (see '\(command) --help')")
                }
                parsed.positionals.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let spec = specs.first(where: { $0.name == name }) else {
                throw ConfigError("unknown flag '--\(name)' for '\(command)' (see '\(command) --help')")
            }
            var value = ""
            if spec.value != nil {
                if let inline {
                    value = inline
                } else {
                    guard index < arguments.count else {
                        throw ConfigError("--\(name): needs a value (\(spec.value!))")
                    }
                    value = arguments[index]
                    index += 1
                }
            } else if inline != nil {
                throw ConfigError("--\(name): takes no value")
            }
            if !spec.repeatable && parsed.flags[name] != nil {
                throw ConfigError("--\(name): given more than once")
            }
            parsed.flags[name, default: []].append(value)
            parsed.order.append(name)
        }
        return parsed
    }

    /// Help text for a command: usage line, description, then one line per flag.
    public static func help(usage: String, summary: String, specs: [FlagSpec]) -> String {
        var lines = ["usage: \(usage)", "", summary, ""]
        if !specs.isEmpty { lines.append("options:") }
        let labels = specs.map { spec in "  --\(spec.name)" + (spec.value.map { " \($0)" } ?? "") }
        let width = min(34, (labels.map(\.count).max() ?? 0) + 2)
        for (label, spec) in zip(labels, specs) {
            let padding = String(repeating: " ", count: max(1, width - label.count))
            lines.append(label + padding + spec.help + (spec.repeatable ? " (repeatable)" : ""))
        }
        lines.append("  --help" + String(repeating: " ", count: max(1, width - 8)) + "show this help")
        return lines.joined(separator: "\n")
    }
}
