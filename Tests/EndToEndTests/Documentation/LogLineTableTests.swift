import Drivers
import Glibc
import Harness
import TestSupport
import Testing

/// docs/troubleshooting.md › By log line lists every warning and error the bridge can log,
/// keyed by the text the user sees (issue 19; moved out of the README in issue 40). This reads
/// the log calls in Sources and fails, naming the file, line and the row to add, for each one
/// without a row, so the table cannot fall behind the code; for a row whose text the code no
/// longer has; and for a vendor's warning whose only rows are about another vendor.
// CPU-bound (a lexer over every source file): off the cooperative pool, so it never starves the
// tests that wait on sockets in this process.
@Suite("docs/troubleshooting.md: troubleshooting by log line", .cpuBound)
struct LogLineTableTests {
    static let root = TestFixtures.repositoryDirectory

    /// Source directories that are not the bridge: simulators, test and benchmark tools.
    static let notTheBridge: Set<String> = ["TVSimulators", "Harness", "tvsim", "tvbench", "COpenSSL", "CSystem"]

    /// Log calls whose message is not a string literal, by "file: expression", and the calls
    /// that produce that message: each producer's literal needs a row in turn. A producer whose
    /// argument is not a literal either must itself be listed here.
    static let indirect: [String: Producer] = [
        // BridgeContext.emit logs each event's message at its level: rows by `event=<kind>`.
        "Bridge/Service/BridgeContext.swift: event.message": .events,
        // A driver's `.warning` event, logged by the TV's agent.
        "Bridge/Agent/TVAgent.swift: message": .calls(".yield(.warning("),
        // The LG session's warnings, carried out by its connection.
        "Drivers/LG/LGConnection.swift: message": .calls(".warn("),
        // The Android TV remote session's log effects, carried out by its link.
        "Drivers/AndroidTV/AndroidTVLink.swift: line": .calls(".warn("),
        // The ECP-2 session's authentication refusal.
        "Drivers/Roku/RokuDriver+ECP2.swift: message": .calls("throw .authentication("),
    ]

    enum Producer {
        case events
        case calls(String)
    }

    /// One warning or error log line: where it is and what the user sees.
    struct Line {
        let place: String
        /// The message's fixed parts in order (the variable parts between them), or an event
        /// as `event=<kind>`.
        let parts: [String]

        /// What the table's first column should read: variable parts written as `…`.
        var key: String { parts.joined(separator: "…") }
    }

    /// Where the table is, from the repository's root.
    static let tablePath = "docs/troubleshooting.md"

    @Test("every warning and error the bridge logs has a row in docs/troubleshooting.md › By log line")
    func everyLineHasARow() throws {
        let (lines, problems) = Self.warningAndErrorLines()
        for problem in problems { Issue.record(Comment(rawValue: problem)) }
        // The scanner finds the lines (a scanner that found none would pass everything).
        #expect(lines.count >= 25, "only \(lines.count) log lines found")
        let keys = try Self.tableKeys()
        for line in lines where !keys.contains(where: { Self.matches(line.parts, $0) }) {
            Issue.record(
                """
                \(line.place) logs "\(line.key)", which has no row in \(Self.tablePath) › By log line; \
                add one (variable parts as …): | `\(line.key)` | what it means | what to do |
                """)
        }
    }

    @Test("every row of the table names text the bridge still logs")
    func noStaleRow() throws {
        var literals: [String] = []
        for file in Self.bridgeSources() {
            literals += LogLineScanner(FileText.read(Self.root + "/Sources/" + file) ?? "").allLiteralParts()
        }
        for key in try Self.tableKeys() {
            for part in Self.significant(key.components("…")) {
                let text = part.hasPrefix("event=") ? String(part.dropFirst(6)) : part
                // A part may join a literal's text and a word chosen inside an interpolation
                // ("lost: " from `\(ok ? "lost" : "failed"): `): then each of its words counts.
                let words = text.split { $0.isWhitespace || ",:;()".contains($0) }.map(String.init)
                let found =
                    literals.contains { $0.contains(text) }
                    || words.allSatisfy { word in literals.contains { $0.contains(word) } }
                #expect(
                    found,
                    "\(Self.tablePath) › By log line: `\(key)`: no string in Sources has \"\(text)\"; update or remove the row"
                )
            }
        }
    }

    @Test("a vendor's warning has a row about that vendor, or about no vendor in particular")
    func everyVendorsWarningsHaveTheirRows() throws {
        let (lines, _) = Self.warningAndErrorLines()
        let rows = try Self.tableRows()
        let manufacturers = Set([Vendor].shipped.map(\.manufacturer))
        var checked = 0
        for vendor in [Vendor].shipped {
            let folder = vendor.kind.rawValue.filter { $0 != "-" }
            for line in lines {
                let parts = line.place.split(separator: "/")
                guard parts.count > 3, parts[1] == "Drivers", parts[2].lowercased() == folder else { continue }
                let matching = rows.filter { row in row.keys.contains { Self.matches(line.parts, $0) } }
                let fits = matching.contains { row in
                    row.text.contains(vendor.manufacturer) || !manufacturers.contains { row.text.contains($0) }
                }
                #expect(
                    fits,
                    "\(line.place) (\(vendor.kind.rawValue)) logs \"\(line.key)\"; its rows in \(Self.tablePath) speak of another vendor only: name \(vendor.manufacturer) there"
                )
                checked += 1
            }
        }
        #expect(checked >= 3, "only \(checked) vendor warnings found")
    }

    /// Each part with a letter in it must be in `key`, in order.
    static func matches(_ parts: [String], _ key: String) -> Bool {
        var rest = Substring(key)
        for part in significant(parts) {
            guard let range = rest.firstRange(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }

    /// The parts that identify a line: trimmed, with a letter in them (not ": " or ")").
    static func significant(_ parts: [String]) -> [String] {
        parts.map { String($0.trimmingBlanks()) }.filter { $0.contains { $0.isLetter } }
    }
}

extension LogLineTableTests {
    /// One row of the table: its first column's `code` texts, and the whole row.
    struct Row {
        let keys: [String]
        let text: String
    }

    /// The rows of docs/troubleshooting.md › By log line.
    static func tableRows() throws -> [Row] {
        let file = try #require(FileText.read(root + "/" + tablePath), "\(tablePath) is missing")
        let lines = file.split(separator: "\n", omittingEmptySubsequences: false)
        let heading = lines.firstIndex { $0.hasPrefix("#") && $0.drop { $0 == "#" } == " By log line" }
        let start = try #require(heading, "\(tablePath) has no 'By log line' heading")
        var rows: [Row] = []
        for line in lines[(start + 1)...] {
            if line.hasPrefix("#") { break }
            guard line.hasPrefix("|"), let cell = line.split(separator: "|").first else { continue }
            let keys = cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
            rows.append(Row(keys: keys, text: String(line)))
        }
        return rows
    }

    /// The first column's `code` texts of docs/troubleshooting.md › By log line.
    static func tableKeys() throws -> [String] {
        let keys = try tableRows().flatMap(\.keys)
        #expect(keys.count >= 20, "the table has \(keys.count) keys")
        return keys
    }

    /// The bridge's modules, incl. the command line and the configuration loading since they
    /// left Bridge (issue 14): the scan must read each, or the table could miss their lines.
    static let modulesThatLog = ["Bridge", "BridgeCommandLine", "ConfigurationLoading", "Clients", "Drivers"]

    @Test("the scan reads every module that logs")
    func scansEveryModule() {
        let modules = Set(Self.bridgeSources().compactMap { $0.split(separator: "/").first.map(String.init) })
        for module in Self.modulesThatLog {
            #expect(modules.contains(module), "Sources/\(module) is not scanned")
        }
    }

    /// Files under Sources that are the bridge (relative paths), but the Logger itself.
    static func bridgeSources() -> [String] {
        func walk(_ relative: String) -> [String] {
            guard let handle = opendir(root + "/Sources/" + relative) else { return [] }
            defer { closedir(handle) }
            var files: [String] = []
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name.hasPrefix(".") { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                if entry.pointee.d_type == UInt8(DT_DIR) {
                    if !notTheBridge.contains(path) { files += walk(path) }
                } else if name.hasSuffix(".swift") && path != "Support/Logger.swift" {
                    files.append(path)
                }
            }
            return files
        }
        return walk("").sorted()
    }

    /// The needles of the calls that log at warning or error, or make a message that is logged.
    static var needles: [String] {
        ["logger.warning(", "logger.error(", "logger.log(", "emit("]
            + indirect.values.compactMap { producer in
                if case .calls(let needle) = producer { return needle } else { return nil }
            }
    }

    /// Every bridge source file's calls of `needles`, scanned once for both tests.
    static let scanned: [(file: String, calls: [String: [LogLineScanner.Call]])] = bridgeSources().map { file in
        (file, LogLineScanner(FileText.read(root + "/Sources/" + file) ?? "").calls(of: needles))
    }

    /// Every warning and error log line in the bridge's sources, and what the scan could not
    /// place (a non-literal message that `indirect` does not explain).
    static func warningAndErrorLines() -> (lines: [Line], problems: [String]) {
        var lines: [Line] = []
        var problems: [String] = []
        for (file, calls) in scanned {
            func take(_ message: String, _ line: Int, producer: Bool = false) {
                let place = "Sources/\(file):\(line)"
                if let parts = LogLineScanner.literalParts(message) {
                    lines.append(Line(place: place, parts: parts))
                } else if indirect["\(file): \(message)"] == nil {
                    problems.append(
                        "\(place) \(producer ? "makes a logged message from" : "logs") `\(message)`, not a string literal: add \"\(file): \(message)\" and where its text comes from to LogLineTableTests.indirect"
                    )
                }
            }
            for level in ["warning", "error"] {
                for call in calls["logger.\(level)(", default: []] { take(call.arguments.first ?? "", call.line) }
            }
            for call in calls["logger.log(", default: []] where call.arguments.count >= 2 {
                if [".trace", ".debug", ".info"].contains(call.arguments[0]) { continue }
                take(call.arguments[1], call.line)
            }
            for call in calls["emit(", default: []] {
                let event = String((call.arguments.first ?? "").filter { !$0.isWhitespace })
                guard event.hasPrefix("BridgeEvent(.") else { continue }
                let quiet = ["level: .trace", "level: .debug", "level: .info"]
                if call.arguments.dropFirst().contains(where: quiet.contains) { continue }
                let kind = event.dropFirst("BridgeEvent(.".count).prefix { $0.isLetter || $0.isNumber }
                lines.append(Line(place: "Sources/\(file):\(call.line)", parts: ["event=" + snakeCase(String(kind))]))
            }
            for case .calls(let needle) in indirect.values {
                for call in calls[needle, default: []] { take(call.arguments.first ?? "", call.line, producer: true) }
            }
        }
        return (lines, problems)
    }

    /// `commandFailed` → `command_failed`, as `BridgeEvent.Kind` names its raw values.
    static func snakeCase(_ name: String) -> String {
        name.map { $0.isUppercase ? "_" + $0.lowercased() : String($0) }.joined()
    }
}

extension StringProtocol {
    fileprivate func trimmingBlanks() -> SubSequence {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
        return self[start..<Swift.max(start, end)]
    }

    /// Split on a separator string (no Foundation).
    fileprivate func components(_ separator: String) -> [String] {
        var parts: [String] = []
        var rest = Substring(self)
        while let range = rest.firstRange(of: separator) {
            parts.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        parts.append(String(rest))
        return parts
    }
}
