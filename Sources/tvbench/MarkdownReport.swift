/// `--markdown FILE`: the README's performance table, written from one run, so the figures
/// there are always a run's and say where they come from. Every checked target is a row beside
/// its figure; a missed one is marked, and one that could not be measured says why.
/// Informational figures stay in the full table (`tvbench` without `--markdown`, or `--json`).
enum MarkdownReport {
    /// Where the figures come from: printed above the table.
    struct Origin {
        let date: String
        let commit: String
        /// `MachineInfo.summary()`: CPU model, cores, memory.
        let machine: String
        /// The machine's load averages (1 minute) before and after the run: figures taken on a
        /// busy machine read high.
        let load: (before: Double, after: Double)
        /// How the bridge measured was built ("static Swift runtime, as installed").
        let bridge: String
        let runs: Int
        /// The command line that made the figures.
        let command: String
    }

    static func render(_ rows: [Report.Row], origin: Origin) -> String {
        var lines = [
            "Measured on \(origin.date) at commit `\(origin.commit)` on \(origin.machine) (load average"
                + " \(Report.format(origin.load.before)) before, \(Report.format(origin.load.after)) after); the bridge:"
                + " \(origin.bridge); medians of \(origin.runs) run\(origin.runs == 1 ? "" : "s"),"
                + " by `\(origin.command)`.",
            "",
            "| figure | value | target | |",
            "|---|---|---|---|",
        ]
        var missed: [String] = []
        var checked = 0
        for row in rows {
            let m = row.measurement
            guard let target = m.target, target.isChecked else { continue }
            checked += 1
            let value = m.value.map { "\(Report.format($0)) \(m.unit)" } ?? "n/a"
            let verdict: String
            if let figure = m.value {
                verdict = target.isMet(figure) ? "met" : "**missed**"
                if !target.isMet(figure) { missed.append("`\(m.name)`") }
            } else {
                verdict = "not measured" + (m.note.map { ": \($0)" } ?? "")
                missed.append("`\(m.name)` (not measured)")
            }
            lines.append("| `\(m.name)` | \(cell(value)) | \(cell(target.text)) | \(cell(verdict)) |")
        }
        lines.append("")
        lines.append(
            missed.isEmpty
                ? "Every one of the \(checked) targets met."
                : "\(checked - missed.count) of \(checked) targets met; missed: \(missed.joined(separator: ", ")).")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A table cell on one line, its `|` escaped.
    private static func cell(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ").replacing("|", with: "\\|")
    }
}
