// tvbench: the benchmarks of issue 6, on loopback, with everything started and stopped here.
// `swift run -c release tvbench [SCENARIO …] [--quick] [--json] [--runs N] [--fleet-size N] [--svg DIR]
// [--markdown FILE]`
import Dispatch
import Glibc
import Harness
import Net
import Support
import Wire

// Like the bridge, the simulated TVs and our clients measured here run on the event loop's
// thread (a Python peer pays one wake-up per answer; so do they).
EventLoop.becomeGlobalExecutor(environment: ProcessEnvironment.current())

let usage = """
    usage: tvbench [SCENARIO …] [--quick] [--json] [--runs N] [--fleet-size N] [--fleet-sizes N,N,…] [--svg DIR]
                   [--markdown FILE]
           tvbench soak [--minutes N] [--tvs N] [--json]   (a long run, a line a minute)
           tvbench driver-client roku|samsung|lg HOST PORT COUNT WARMUP   (driver-latency's client)
    Scenarios (default: all): \(allScenarios.map { type(of: $0).name }.joined(separator: " "))
      --quick         small counts and short waits (CI: the whole run under a minute, plus the
                      trace bridge's build on latency-budget's first run: a few minutes)
      --json          a JSON document instead of the table
      --runs N        runs per scenario, the median is reported (default 3; 1 with --quick)
      --fleet-size N  TVs in the fleet scenario (default 1000; 50 with --quick)
      --fleet-sizes N,N,…  fleet sizes to measure, smallest first (default: a tenth of
                      --fleet-size, then --fleet-size); the largest is the one reported
      --svg DIR       draw this run into DIR/command-latency.svg (each transport's and
                      client's latency beside the peers') and DIR/fleet.svg (memory and
                      CPU against the number of TVs)
      --markdown FILE write the README's performance table of this run to FILE: the date,
                      commit and machine, every target beside its figure, missed ones marked
    Build first: swift build -c release, then swift build -c release --static-swift-stdlib
    --product tv2mqtt (the bridge as the README installs it; tvbench starts the tv2mqtt and
    tvsim beside it, and says which kind of tv2mqtt it measured).
    """

func fail(_ message: String) -> Never {
    writeStandardError("tvbench: \(message)")
    exit(2)
}

func writeStandardError(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
}

var options = BenchOptions()
var arguments = CommandLine.arguments.dropFirst()

// `tvbench driver-client …`: our driver as a client process of its own, for driver-latency.
if arguments.first == "driver-client" {
    await DriverClient.main(Array(arguments.dropFirst()))
}

// `tvbench soak [--minutes N] [--tvs N] [--json]`: a long run with a line a minute (Soak.swift).
if arguments.first == "soak" {
    arguments.removeFirst()
    var minutes = 60
    var tvs = 100
    var json = false
    while let argument = arguments.popFirst() {
        switch argument {
        case "--minutes", "--tvs":
            guard let text = arguments.popFirst(), let number = Int(text), (1...1000).contains(number) else {
                fail("\(argument) needs a number (1-1000)")
            }
            if argument == "--minutes" { minutes = number } else { tvs = number }
        case "--json": json = true
        default: fail("unknown argument '\(argument)' for soak (soak [--minutes N] [--tvs N] [--json])")
        }
    }
    do {
        try await Soak.run(minutes: minutes, tvCount: tvs, json: json)
    } catch {
        fail("soak failed: \(error)")
    }
    exit(0)
}
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick": options.quick = true
    case "--json": options.json = true
    case "--runs", "--fleet-size":
        guard let text = arguments.popFirst(), let number = Int(text), (1...5000).contains(number) else {
            fail("\(argument) needs a number (1-5000)")
        }
        if argument == "--runs" { options.runs = number } else { options.fleetSize = number }
    case "--fleet-sizes":
        let sizes = arguments.popFirst().map { $0.split(separator: ",").map { Int($0) } } ?? []
        guard !sizes.isEmpty, sizes.allSatisfy({ $0.map { (10...5000).contains($0) } ?? false }) else {
            fail("--fleet-sizes needs numbers (10-5000) separated by commas")
        }
        options.fleetSizes = sizes.compactMap { $0 }.sorted()
    case "--svg":
        guard let directory = arguments.popFirst(), !directory.isEmpty else { fail("--svg needs a directory") }
        options.svgDirectory = directory
    case "--markdown":
        guard let file = arguments.popFirst(), !file.isEmpty else { fail("--markdown needs a file") }
        options.markdownFile = file
    case "--help", "-h":
        print(usage)
        exit(0)
    case let name where allScenarios.contains { type(of: $0).name == name }:
        options.scenarios.append(name)
    default: fail("unknown argument '\(argument)'\n\(usage)")
    }
}

// Ctrl-C or SIGTERM: exit, and the harness's exit handler kills every child process group it
// started (bridge, brokers, tvsim); the in-process simulators end with us.
signal(SIGINT, SIG_IGN)
signal(SIGTERM, SIG_IGN)
let signalSources = [SIGINT, SIGTERM].map { number in
    let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
    source.setEventHandler {
        writeStandardError("tvbench: interrupted; stopping everything it started")
        exit(130)
    }
    source.resume()
    return source
}

let chosen = allScenarios.filter { options.scenarios.isEmpty || options.scenarios.contains(type(of: $0).name) }
let loadBefore = MachineInfo.loadAverage()
let began = wallClockSeconds()
var report = Report()
for scenario in chosen {
    let name = type(of: scenario).name
    var runs: [[Measurement]] = []
    for run in 1...options.effectiveRuns {
        writeStandardError("tvbench: \(name) run \(run)/\(options.effectiveRuns) (load \(MachineInfo.loadAverage()))")
        do {
            runs.append(try await scenario.run(options: options))
        } catch {
            writeStandardError("tvbench: \(name) failed: \(error)")
            runs.append(scenario.failed("failed: \(error)"))
        }
    }
    report.add(scenario: name, runs: runs)
}

let loadAfter = MachineInfo.loadAverage()
let environment: [String: JSONValue] = [
    "machine": .string(MachineInfo.summary()),
    "date": .string(isoTimestamp(began, fractional: false)),
    "duration_s": .number(Report.rounded(wallClockSeconds() - began)),
    "load_average_before": .array(loadBefore.map(JSONValue.number)),
    "load_average_after": .array(loadAfter.map(JSONValue.number)),
    "runs_per_scenario": .integer(Int64(options.effectiveRuns)),
    "quick": .bool(options.quick),
    "products": .string(Products.directory),
    "bridge": .string(BridgeBuild.summary()),
]
if options.json {
    print(report.json(environment: environment))
} else {
    print("tvbench — \(environment["machine"]?.stringValue ?? ""), \(isoTimestamp(began, fractional: false))")
    print("load average before \(loadBefore), after \(loadAfter); medians of \(options.effectiveRuns) run(s)")
    print("bridge: \(BridgeBuild.summary())")
    print(report.table())
    if let budget = LatencyBudget.table(report) { print(budget) }
}
if let file = options.markdownFile {
    let bridge = (try? BridgeBuild.executable()).map(BridgeBuild.kind(of:)) ?? "not built"
    let origin = MarkdownReport.Origin(
        date: isoTimestamp(began, fractional: false), commit: await SourceCommit.describe(),
        machine: environment["machine"]?.stringValue ?? "",
        load: (loadBefore.first ?? 0, loadAfter.first ?? 0), bridge: bridge, runs: options.effectiveRuns,
        command: (["tvbench"] + CommandLine.arguments.dropFirst()).joined(separator: " "))
    do {
        try FileText.write(MarkdownReport.render(report.rows, origin: origin), to: file)
        writeStandardError("tvbench: wrote \(file)")
    } catch {
        fail("--markdown: \(error)")
    }
}
if let directory = options.svgDirectory {
    do {
        for path in try SVGPlots.write(to: directory, runs: options.effectiveRuns) {
            writeStandardError("tvbench: wrote \(path)")
        }
    } catch {
        fail("--svg: \(error)")
    }
}
_ = signalSources
exit(0)
