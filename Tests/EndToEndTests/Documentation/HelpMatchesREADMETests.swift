import Harness
import TestSupport
import Testing

/// The README's command line and the binary's help agree: README › Command line names exactly the
/// options the commands' `--help` list, its table marks for each option the commands whose help
/// lists it, and every `tv2mqtt …` written anywhere in the README uses only options that
/// command's help lists. So an option added to the code without a word in the README, or one the
/// README promises that the binary does not take, fails here.
@Suite("README: the command line matches --help")
struct HelpMatchesREADMETests {
    let tv2mqtt = BuiltProducts.path("tv2mqtt")

    /// The commands of `tv2mqtt --help`, in order; "run" is the default.
    static let commands = ["run", "discover", "pair", "send", "check-config", "health", "version"]
    /// The commands with a column of their own in README › Command line's table.
    static let tableColumns = ["run", "discover", "pair", "send"]

    @Test("README › Command line names every option the help lists, and no other")
    func optionsMatch() async throws {
        let help = try await helpOptions()
        let listed = help.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        let named = Set(Self.options(in: try Self.commandLineSection()))
        let missing = listed.subtracting(named).sorted()
        let unknown = named.subtracting(listed).sorted()
        #expect(missing.isEmpty, "README › Command line does not name \(missing), which --help lists")
        #expect(unknown.isEmpty, "README › Command line names \(unknown), which no command's --help lists")
    }

    @Test("each row of the options table marks exactly the commands whose help lists it")
    func tableMarksTheRightCommands() async throws {
        let help = try await helpOptions()
        let rows = try Self.commandLineSection().filter { $0.hasPrefix("| `--") }
        #expect(rows.count >= 10, "the options table has \(rows.count) rows")
        for row in rows {
            let cells = Self.cells(of: row)
            // | option | run | discover | pair | send | what |: cells[0] is before the first bar.
            guard cells.count >= 7 else {
                Issue.record("a row of the options table without its columns: \(row)")
                continue
            }
            for option in Self.options(in: [String(cells[1])]) {
                for (index, command) in Self.tableColumns.enumerated() {
                    let marked = cells[2 + index] == "✓"
                    let takes = help[command, default: []].contains(option)
                    #expect(marked == takes, "\(option) for \(command): the table says \(marked), --help says \(takes)")
                }
            }
        }
    }

    @Test("check-config and health take the options of run, as the README says")
    func checkConfigAndHealthTakeRunOptions() async throws {
        let help = try await helpOptions()
        #expect(help["check-config"] == help["run"])
        #expect(help["health"] == help["run"])
    }

    @Test("every tv2mqtt command line written in the README uses options its command takes")
    func invocationsUseKnownOptions() async throws {
        let help = try await helpOptions()
        let invocations = Self.invocations(in: try Self.readme())
        #expect(invocations.count >= 5, "found \(invocations.count) tv2mqtt command lines in the README")
        for words in invocations {
            let command = words.dropFirst().first.flatMap { Self.commands.contains($0) ? $0 : nil } ?? "run"
            for option in Self.options(in: [words.joined(separator: " ")]) {
                #expect(
                    help[command, default: []].contains(option),
                    "README writes `\(words.joined(separator: " "))`, but `tv2mqtt \(command) --help` lists no \(option)"
                )
            }
        }
    }

    /// Each command's options, as its `--help` lists them (lines starting with "  --").
    func helpOptions() async throws -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        for command in Self.commands {
            let run = try await ChildProcess.run(tv2mqtt, [command, "--help"])
            #expect(run.status == .exited(0), "tv2mqtt \(command) --help: \(run.error)")
            let lines = run.output.split(separator: "\n").filter { $0.hasPrefix("  --") }
            result[command] = Set(Self.options(in: lines.map { String($0.split(separator: " ")[0]) }))
        }
        return result
    }

    static func readme() throws -> String {
        try #require(FileText.read(LogLineTableTests.root + "/README.md"))
    }

    /// The lines of README › Command line, from its heading to the next `## ` heading.
    static func commandLineSection() throws -> [String] {
        let lines = try readme().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "## Command line"), "README.md has no '## Command line'")
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("## ") } ?? lines.count
        return Array(lines[start..<end])
    }

    /// The cells of a table row, split at each `|` that is not escaped (`\|` inside a cell), trimmed.
    static func cells(of row: String) -> [String] {
        var cells: [String] = [""]
        var previous: Character = " "
        for character in row {
            if character == "|" && previous != "\\" {
                cells.append("")
            } else {
                cells[cells.count - 1].append(character)
            }
            previous = character
        }
        return cells.map { cell in
            String(cell.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        }
    }

    /// Every `--name` in `lines` (a name is lower-case letters, digits and dashes).
    static func options(in lines: [String]) -> [String] {
        var found: [String] = []
        for line in lines {
            let characters = Array(line)
            var index = 0
            while index + 2 < characters.count {
                let starts = characters[index] == "-" && characters[index + 1] == "-"
                let after = index == 0 || characters[index - 1] != "-"
                guard starts, after, characters[index + 2].isLowercase else {
                    index += 1
                    continue
                }
                var end = index + 2
                while end < characters.count,
                    characters[end].isLowercase || characters[end].isNumber || characters[end] == "-"
                {
                    end += 1
                }
                found.append(String(characters[index..<end]))
                index = end
            }
        }
        return found
    }

    /// The words of each `tv2mqtt …` the README writes: a code span, or a line of a code block,
    /// whose first word is the program (`tv2mqtt`, `.build/release/tv2mqtt`), up to a `#` comment.
    static func invocations(in text: String) -> [[String]] {
        var pieces: [Substring] = []
        var inBlock = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            if inBlock {
                pieces.append(line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
            } else {
                let parts = line.split(separator: "`", omittingEmptySubsequences: false)
                pieces += parts.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            }
        }
        return pieces.map { $0.split(separator: " ").map(String.init) }.filter { words in
            // `NAME=…/tv2mqtt` sets a variable for another program (tvbench's TVBENCH_BRIDGE).
            guard let program = words.first, !program.contains("=") else { return false }
            return program == "tv2mqtt" || program.hasSuffix("/tv2mqtt")
        }
    }
}
