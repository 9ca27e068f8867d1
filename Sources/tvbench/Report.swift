import Wire

/// A target (all of them are in `Targets`): the text printed in the table and the check
/// behind "met". `isChecked` is false for an informational one, which is never missed.
struct Target: Sendable {
    let text: String
    let isChecked: Bool
    let isMet: @Sendable (Double) -> Bool

    static func atMost(_ limit: Double, _ unit: String = "") -> Target {
        Target(text: "≤ \(Report.format(limit))\(unit.isEmpty ? "" : " " + unit)", isChecked: true) { $0 <= limit }
    }

    static func atLeast(_ limit: Double, _ unit: String = "") -> Target {
        Target(text: "≥ \(Report.format(limit))\(unit.isEmpty ? "" : " " + unit)", isChecked: true) { $0 >= limit }
    }

    /// Informational: printed, never failed (a figure without a target of its own).
    static func info(_ text: String = "") -> Target { Target(text: text, isChecked: false) { _ in true } }
}

/// One figure of one run. `value` nil means "not measured": the transport is not built yet, a
/// reference client is not installed, or the run failed (then `note` says why).
struct Measurement: Sendable {
    let name: String
    let value: Double?
    let unit: String
    let target: Target?
    let note: String?

    init(_ name: String, _ value: Double?, unit: String, target: Target? = nil, note: String? = nil) {
        self.name = name
        self.value = value
        self.unit = unit
        self.target = target
        self.note = note
    }
}

/// The figures of every scenario, each the median of its runs, as a table or a JSON document.
struct Report {
    struct Row {
        let scenario: String
        let measurement: Measurement
        let runs: Int
    }

    private(set) var rows: [Row] = []

    /// Folds several runs of one scenario into one row per metric: the median of the values
    /// that were measured, their target, the first run's note and how many runs failed.
    mutating func add(scenario: String, runs: [[Measurement]]) {
        var order: [String] = []
        var byName: [String: [Measurement]] = [:]
        for run in runs {
            for measurement in run {
                if byName[measurement.name] == nil { order.append(measurement.name) }
                byName[measurement.name, default: []].append(measurement)
            }
        }
        for name in order {
            let all = byName[name] ?? []
            let measured = all.filter { $0.value != nil }
            let failures = all.filter { $0.value == nil && $0.target == nil && $0.note?.hasPrefix("failed") == true }
            // Notes of the measured runs differ only in figures: keep the first; say how many failed.
            var notes = [(measured.first ?? all[0]).note].compactMap { $0 }
            if !measured.isEmpty, let failure = failures.first?.note {
                notes.append("\(failures.count) of \(all.count) runs \(failure)")
            }
            let first = measured.first ?? all.first { $0.target != nil } ?? all[0]
            let merged = Measurement(
                name, Statistics.median(measured.compactMap(\.value)), unit: first.unit, target: first.target,
                note: notes.isEmpty ? nil : notes.joined(separator: "; "))
            rows.append(Row(scenario: scenario, measurement: merged, runs: measured.count))
        }
    }

    /// The table: scenario, metric, value, target, whether it is met, runs, notes.
    func table() -> String {
        let header = ["scenario", "metric", "value", "target", "met", "runs", "note"]
        var lines = [header]
        for row in rows {
            let m = row.measurement
            let value = m.value.map { "\(Self.format($0)) \(m.unit)" } ?? "n/a"
            let met: String
            if let v = m.value, let target = m.target, !target.text.isEmpty {
                met = target.isMet(v) ? "yes" : "NO"
            } else {
                met = ""
            }
            lines.append([
                row.scenario, m.name, value, m.target?.text ?? "", met, row.runs > 0 ? "\(row.runs)" : "",
                m.note ?? "",
            ])
        }
        var widths = Array(repeating: 0, count: header.count)
        for line in lines {
            for (index, cell) in line.enumerated() where index < header.count - 1 {
                widths[index] = max(widths[index], cell.count)
            }
        }
        return lines.map { line in
            line.enumerated().map { index, cell in
                index == header.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// `{"metrics": {name: value or null}, "notes": {name: why}, "environment": {...}}`: the
    /// metric names are exactly those of the issue (plus the per-transport and reference ones).
    func json(environment: [String: JSONValue]) -> String {
        var metrics: [String: JSONValue] = [:]
        var notes: [String: JSONValue] = [:]
        for row in rows {
            metrics[row.measurement.name] = row.measurement.value.map { .number(Self.rounded($0)) } ?? .null
            if let note = row.measurement.note { notes[row.measurement.name] = .string(note) }
        }
        let document: JSONValue = .object([
            "metrics": .object(metrics), "notes": .object(notes), "environment": .object(environment),
        ])
        return document.prettyPrinted()
    }

    /// Three significant decimals are plenty for figures this noisy.
    static func rounded(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }

    /// "0.412", "12.5", "183000".
    static func format(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        let magnitude = abs(value)
        let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if decimals == 0 { return String(Int64(rounded)) }
        return "\(rounded)"
    }
}
