import Testing

@testable import tvbench

/// `tvbench --markdown`: figures and targets in, the README's table out (no run, no timing).
@Suite struct MarkdownReportTests {
    static let origin = MarkdownReport.Origin(
        date: "2026-12-01T23:00:00Z", commit: "abc1234", machine: "AMD EPYC × 2, 23.5 GiB",
        load: (0.52, 1.75),
        bridge: "static Swift runtime, as installed", runs: 3, command: "tvbench --runs 3 --markdown perf.md")

    static func rendered(_ measurements: [Measurement]) -> String {
        var report = Report()
        report.add(scenario: "idle", runs: [measurements])
        return MarkdownReport.render(report.rows, origin: origin)
    }

    @Test func saysWhenWhereAndHow() {
        let table = Self.rendered([Measurement("idle_cpu_percent", 0.02, unit: "%", target: Targets.idleCPU)])
        #expect(table.contains("2026-12-01T23:00:00Z"))
        #expect(table.contains("commit `abc1234`"))
        #expect(table.contains("AMD EPYC × 2, 23.5 GiB (load average 0.52 before, 1.75 after)"))
        #expect(table.contains("static Swift runtime"))
        #expect(table.contains("medians of 3 runs"))
        #expect(table.contains("`tvbench --runs 3 --markdown perf.md`"))
    }

    @Test func eachTargetBesideItsFigureMetOrMissed() {
        let table = Self.rendered([
            Measurement("idle_cpu_percent", 0.028, unit: "%", target: Targets.idleCPU),
            Measurement("idle_rss_mb", 14.26, unit: "MB", target: Targets.idleRSS),
        ])
        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines.contains("| `idle_cpu_percent` | 0.028 % | ≤ 0.05 % | met |"))
        #expect(lines.contains("| `idle_rss_mb` | 14.3 MB | ≤ 14 MB | **missed** |"))
        #expect(table.contains("1 of 2 targets met; missed: `idle_rss_mb`."))
    }

    @Test func anUnmeasuredTargetSaysWhyAndCountsAsMissed() {
        let table = Self.rendered([
            Measurement(
                "lg_key_overhead_ratio_vs_python_aiowebostv", nil, unit: "×", target: Targets.lgKeyOverheadRatio,
                note: "aiowebostv | not installed")
        ])
        #expect(
            table.contains(
                "| `lg_key_overhead_ratio_vs_python_aiowebostv` | n/a | ≥ 2.5 | not measured: aiowebostv \\| not installed |"
            ))
        #expect(table.contains("0 of 1 targets met"))
    }

    @Test func informationalFiguresStayOutAndAllMetIsSaid() {
        let table = Self.rendered([
            Measurement("state_latency_push_p50_ms", 1.2, unit: "ms", target: .info()),
            Measurement("fleet_fds", 1513, unit: "fds", target: .info("stable")),
            Measurement("state_latency_push_p99_ms", 2.03, unit: "ms", target: Targets.statePushP99),
        ])
        #expect(!table.contains("state_latency_push_p50_ms"))
        #expect(!table.contains("fleet_fds"))
        #expect(table.contains("| `state_latency_push_p99_ms` | 2.03 ms | ≤ 100 ms | met |"))
        #expect(table.contains("Every one of the 1 targets met."))
    }
}
