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
           tvsim fleet --roku N --samsung M   N Rokus then M Samsungs on consecutive loopback addresses
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
    case "--help", "-h", "help":
        print(usage)
        exit(0)
    case nil: fail("missing command (roku, samsung or fleet); see tvsim --help")
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

/// `--ssdp-port 0` / `--wol-port 0`: the first TV binds a port the kernel picks, every later TV
/// joins it, and it is reported once (`tvsim: ssdp port P`) for whoever started tvsim to read:
/// a port chosen beforehand and bound later could be taken by another socket in between.
var shared = SharedPorts()

var simulators: [RokuSimulator] = []
for var options in plan.rokus {
    options.ssdpPort = shared.ssdp(options.ssdpPort)
    options.wolPort = shared.wol(options.wolPort)
    do {
        let simulator = try await RokuSimulator.start(options, log: log)
        simulators.append(simulator)
        shared.learn(ssdp: simulator.ssdpPort, wol: simulator.wolPort)
        let what = options.kind == .tv ? "TV" : "stick"
        writeStandardError(
            "tvsim: roku \(what) \"\(simulator.name)\" serial \(simulator.serial) at \(simulator.location)")
    } catch {
        for simulator in simulators { await simulator.stop() }
        fail("cannot start a Roku on \(options.host):\(options.port): \(error)", code: 1)
    }
}

var samsungs: [SamsungSimulator] = []
for var options in plan.samsungs {
    options.ssdpPort = shared.ssdp(options.ssdpPort)
    options.wolPort = shared.wol(options.wolPort)
    do {
        let simulator = try await SamsungSimulator.start(options, log: log)
        samsungs.append(simulator)
        shared.learn(ssdp: simulator.ssdpPort, wol: simulator.wolPort)
        writeStandardError(
            "tvsim: samsung\(options.frame ? " Frame" : "") TV \"\(simulator.name)\" \(simulator.duid) at"
                + " \(simulator.host): REST/ws \(simulator.portWS), wss \(simulator.portWSS),"
                + " UPnP \(simulator.portUPnP), pairing \(options.pairing.rawValue)")
    } catch {
        for simulator in simulators { await simulator.stop() }
        for simulator in samsungs { await simulator.stop() }
        fail("cannot start a Samsung on \(options.host): \(error)", code: 1)
    }
}

var legacies: [SamsungLegacySimulator] = []
for var options in plan.samsungLegacies {
    options.ssdpPort = shared.ssdp(options.ssdpPort)
    options.wolPort = shared.wol(options.wolPort)
    do {
        let simulator = try await SamsungLegacySimulator.start(options, log: log)
        legacies.append(simulator)
        shared.learn(ssdp: simulator.ssdpPort, wol: simulator.wolPort)
        let ports =
            options.encrypted
            ? "encrypted H/J model, REST \(simulator.restPort ?? 0)" : "legacy remote \(simulator.port)"
        writeStandardError(
            "tvsim: samsung pre-2016 TV \"\(simulator.name)\" at \(simulator.host): \(ports), pairing \(options.pairing.rawValue)"
        )
    } catch {
        for simulator in simulators { await simulator.stop() }
        for simulator in samsungs { await simulator.stop() }
        fail("cannot start a legacy Samsung on \(options.host): \(error)", code: 1)
    }
}

await stop.wait()
writeStandardError("tvsim: stopping \(simulators.count + samsungs.count + legacies.count) simulated TV(s)")
for simulator in simulators { await simulator.stop() }
for simulator in samsungs { await simulator.stop() }
for simulator in legacies { await simulator.stop() }
exit(0)
