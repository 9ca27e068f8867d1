import Glibc
import Harness
import Support

/// `latency-budget`: where one command's time goes, per transport. `command-latency`'s keys
/// go through a bridge built with `TV2MQTT_TRACE` (`TraceBuild`), which stamps each stage of
/// the command's path (`TraceStage`); tvbench adds the publish (before) and the simulated TV's
/// receipt (after). A row is the p50, in µs, of the time from the stage before it to it, over
/// the measured commands: MQTT receive and decode → route and parse → plan → queue → driver →
/// encode and write → the TV reads it. The p50s of the rows do not add up to the p50 of the
/// total exactly (medians do not add); the total row is the trace build's own end-to-end p50.
struct LatencyBudget: Scenario {
    static let name = "latency-budget"

    /// A row: the stamp it ends at, its metric key and its label in the table.
    struct Row: Sendable {
        let key: String
        let label: String
        /// Index into a command's stamps (`stamps(for:)`): publish, the bridge's stages, receipt.
        let stamp: Int
    }

    /// publish, then the bridge's stages, then the TV's receipt.
    static let rows: [Row] = {
        let labels: [TraceStage: (String, String)] = [
            .mqttRead: ("broker", "broker hop: publish → the bridge's read returns"),
            .mqttDecoded: ("mqtt_decode", "MQTT decode → message stream"),
            .routed: ("route", "route: message task, topic, the TV's agent"),
            .parsed: ("parse", "parse (CommandParser)"),
            .planned: ("plan", "plan (driver.plan) and queue it"),
            .dequeued: ("queue", "queue → the TV's command worker"),
            .driverSend: ("driver", "driver → its client"),
            .encoded: ("encode", "encode (HTTP request, WebSocket frame)"),
            .encrypted: ("tls", "TLS records (Samsung)"),
            .socketWrite: ("write", "hand-over to send()"),
        ]
        var rows: [Row] = TraceStage.allCases.map { stage in
            let (key, label) = labels[stage]!
            return Row(key: key, label: label, stamp: stage.rawValue + 1)
        }
        rows.append(
            Row(key: "tv_reads", label: "send() → the TV has read and logged it", stamp: TraceStage.allCases.count + 1))
        return rows
    }()

    static func metric(_ transport: Transport, _ key: String) -> String {
        "latency_budget_\(transport.rawValue)_\(key)_us"
    }

    var metrics: [(name: String, unit: String)] {
        Transport.allCases.flatMap { transport in
            (Self.rows.map(\.key) + ["total"]).map { (Self.metric(transport, $0), "µs") }
        }
    }

    func run(options: BenchOptions) async throws -> [Measurement] {
        let executable = try await TraceBuild.executable()
        let count = options.quick ? 200 : 2000
        var measurements: [Measurement] = []
        for transport in Transport.allCases {
            do {
                measurements += try await measure(transport, count: count, executable: executable)
            } catch {
                let note = "\(transport.label) failed: \(error)"
                measurements += (Self.rows.map(\.key) + ["total"]).map {
                    Measurement(Self.metric(transport, $0), nil, unit: "µs", note: note)
                }
            }
        }
        return measurements
    }

    private func measure(_ transport: Transport, count: Int, executable: String) async throws -> [Measurement] {
        let directory = try TemporaryDirectory(prefix: "tvbench-trace")
        let traceFile = directory.file("trace.txt")
        var environment = ProcessEnvironment.current()
        environment[TraceBuild.fileVariable] = traceFile
        let settings = BridgeSettings(executable: executable, environment: environment)
        // The bridge writes its records when it exits, which `timedCommands` waits for.
        let commands = try await CommandLatency.timedCommands(transport, count: count, settings: settings)
        let records = try TraceBuild.records(in: traceFile)
        let matched = Self.match(commands, records)
        guard matched.count >= count / 2 else {
            throw BenchError("only \(matched.count) of \(count) commands have a complete trace")
        }
        let note = "p50 of \(matched.count) commands, trace build"
        var measurements: [Measurement] = []
        for row in Self.rows {
            let samples = matched.compactMap { stamps -> Double? in
                guard let end = stamps[row.stamp],
                    let start = stamps[..<row.stamp].last(where: { $0 != nil }) ?? nil
                else { return nil }
                return (end - start) * 1_000_000
            }
            let value = Statistics.percentile(samples, 50)
            measurements.append(
                Measurement(
                    Self.metric(transport, row.key), value, unit: "µs",
                    note: "\(row.label); " + (value == nil ? "not on this transport" : note)))
        }
        let totals = matched.compactMap { stamps in
            stamps.last!.flatMap { end in stamps[0].map { (end - $0) * 1_000_000 } }
        }
        measurements.append(
            Measurement(
                Self.metric(transport, "total"), Statistics.percentile(totals, 50), unit: "µs",
                note: "publish → the TV has it; \(note)"))
        return measurements
    }

    /// Each measured command's stamps (publish, the bridge's stages, receipt) with the trace
    /// record whose decode falls between its publish and its receipt (one command at a time,
    /// so at most one does; warm-up commands and stray records find no partner).
    static func match(_ commands: [(sent: Double, received: Double)], _ records: [[Double?]]) -> [[Double?]] {
        let decoded = TraceStage.mqttDecoded.rawValue
        let sortedRecords = records.filter { $0.count == TraceStage.allCases.count && $0[decoded] != nil }
            .sorted { $0[decoded]! < $1[decoded]! }
        var matched: [[Double?]] = []
        var next = 0
        for command in commands.sorted(by: { $0.sent < $1.sent }) {
            while next < sortedRecords.count && sortedRecords[next][decoded]! < command.sent { next += 1 }
            guard next < sortedRecords.count, sortedRecords[next][decoded]! <= command.received else { continue }
            matched.append([command.sent] + sortedRecords[next] + [command.received])
            next += 1
        }
        return matched
    }

    /// The budget as a table, stages down and transports across, from the report's rows;
    /// nil when the report has none.
    static func table(_ report: Report) -> String? {
        var values: [String: Double] = [:]
        for row in report.rows where row.scenario == name {
            if let value = row.measurement.value { values[row.measurement.name] = value }
        }
        guard !values.isEmpty else { return nil }
        var lines = [["stage (p50, µs)"] + Transport.allCases.map(\.label)]
        for (key, label) in Self.rows.map({ ($0.key, $0.label) }) + [("total", "total (publish → TV)")] {
            lines.append(
                [label]
                    + Transport.allCases.map { transport in
                        values[metric(transport, key)].map { Report.format($0) } ?? "—"
                    })
        }
        var widths = Array(repeating: 0, count: lines[0].count)
        for line in lines { for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) } }
        let text = lines.map { line in
            line.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
        return "\nlatency budget (trace build, one command at a time):\n" + text.joined(separator: "\n")
    }
}
