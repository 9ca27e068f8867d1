// tvsim: simulated TVs on real sockets, for tests, benchmarks and trying tv2mqtt without a TV.
import Glibc
import Net
import Support
import TVSimulators

EventLoop.becomeGlobalExecutor(environment: ProcessEnvironment.current())

let usage = """
    usage: tvsim roku [options]      one simulated Roku (tvsim roku --help)
           tvsim fleet --roku N      N simulated Rokus on consecutive loopback addresses (tvsim fleet --help)
           tvsim samsung [options]   one simulated Samsung Tizen TV (tvsim samsung --help)
           tvsim lg [options]        one simulated LG webOS TV (tvsim lg --help)
           tvsim androidtv [options] one simulated Android TV (tvsim androidtv --help)
           tvsim fleet --roku N --samsung M --lg K   N Rokus, M Samsungs, K LGs on consecutive loopback addresses
    """

func fail(_ message: String, code: Int32 = 2) -> Never {
    writeStandardError("tvsim: \(message)")
    exit(code)
}

let arguments = CommandLine.arguments.dropFirst()
let plan: SimulatorPlan?
do {
    switch arguments.first {
    case "roku": plan = try SimulatorPlan.roku(arguments.dropFirst())
    case "fleet": plan = try SimulatorPlan.fleet(arguments.dropFirst())
    case "samsung": plan = try SimulatorPlan.samsung(arguments.dropFirst())
    case "lg": plan = try SimulatorPlan.lg(arguments.dropFirst())
    case "androidtv": plan = try SimulatorPlan.androidTV(arguments.dropFirst())
    case "--help", "-h", "help":
        print(usage)
        exit(0)
    case nil: fail("missing command (roku, samsung, lg, androidtv or fleet); see tvsim --help")
    case let other?: fail("unknown command '\(other)'; see tvsim --help")
    }
} catch {
    fail(error.message)
}
guard let plan else { exit(0) }
if let problem = DescriptorBudget.ensure(DescriptorBudget.needed(for: plan)) { fail(problem, code: 1) }

let stop = StopSignal()

let log = CommandLog(path: plan.logPath)
if let problem = log.openError { fail(problem, code: 1) }

let (running, problem) = await Launcher.launch(plan, log: log)
if let problem { fail(problem, code: 1) }

await stop.wait()
writeStandardError("tvsim: stopping \(running.count) simulated TV(s)")
for tv in running { await tv.stop() }
exit(0)
