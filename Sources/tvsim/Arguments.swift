import TVSimulators

/// Why the command line was refused: one line on stderr, exit code 2.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// A cursor over the arguments of one subcommand.
struct ArgumentReader {
    private var rest: ArraySlice<String>

    init(_ arguments: ArraySlice<String>) { rest = arguments }

    mutating func next() -> String? { rest.popFirst() }

    mutating func value(for flag: String) throws(UsageError) -> String {
        guard let value = rest.popFirst(), !value.hasPrefix("--") else {
            throw UsageError("\(flag) needs a value")
        }
        return value
    }

    mutating func port(for flag: String, allowZero: Bool = false) throws(UsageError) -> UInt16 {
        let text = try value(for: flag)
        guard let port = UInt16(text), allowZero || port > 0 else {
            throw UsageError("\(flag): '\(text)' is not a port number (1-65535)")
        }
        return port
    }

    mutating func count(for flag: String) throws(UsageError) -> Int {
        let text = try value(for: flag)
        guard let count = Int(text), (0...4096).contains(count) else {
            throw UsageError("\(flag): '\(text)' is not a count (0-4096)")
        }
        return count
    }
}

/// IPv4 address helpers for `--host` checks and the fleet's consecutive addresses.
enum IPv4 {
    static func parse(_ text: String) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard let octet = UInt8(part) else { return nil }
            value = value << 8 | UInt32(octet)
        }
        return value
    }

    static func format(_ value: UInt32) -> String {
        [24, 16, 8, 0].map { String(value >> UInt32($0) & 0xFF) }.joined(separator: ".")
    }

    static func isLoopback(_ text: String) -> Bool {
        if text == "::1" { return true }
        return parse(text).map { $0 >> 24 == 127 } ?? false
    }
}

/// Refuses a non-loopback host unless explicitly allowed: a simulated TV on a real interface
/// would answer SSDP searches and take commands from the whole network it sits on.
func checkHost(_ host: String, allowNonLoopback: Bool) throws(UsageError) {
    guard IPv4.parse(host) != nil || host.contains(":") else {
        throw UsageError("--host: '\(host)' is not a numeric IP address")
    }
    if !IPv4.isLoopback(host) && !allowNonLoopback {
        throw UsageError(
            "--host \(host) is not a loopback address; a simulated TV there would answer SSDP and"
                + " take commands from the real network (pass --allow-non-loopback if you really mean it)")
    }
}
