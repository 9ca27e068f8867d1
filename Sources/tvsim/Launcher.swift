import TVSimulators

/// Starts the planned TVs one after another, sharing the SSDP and Wake-on-LAN ports asked as
/// 0 (see `SharedPorts`), and stops them all at the end, or when one cannot start.
struct Launcher {
    private var shared = SharedPorts()
    private(set) var running: [any SimulatedTV] = []

    /// Starts a TV for each of `list`; `start` returns it with the line that announces it.
    /// - Returns: nil, or why one could not start (every TV started is stopped by then).
    mutating func start<Options: SimulatedTVOptions>(
        _ list: [Options], naming where: (Options) -> String,
        _ start: (Options) async throws -> (tv: any SimulatedTV, line: String)
    ) async -> String? {
        for var options in list {
            options.ssdpPort = shared.ssdp(options.ssdpPort)
            options.wolPort = shared.wol(options.wolPort)
            options.mdnsPort = shared.mdns(options.mdnsPort)
            do {
                let started = try await start(options)
                running.append(started.tv)
                shared.learn(ssdp: started.tv.ssdpPort, wol: started.tv.wolPort, mdns: started.tv.mdnsPort)
                writeStandardError("tvsim: \(started.line)")
            } catch {
                await stopAll()
                return "cannot start \(`where`(options)): \(error)"
            }
        }
        return nil
    }

    func stopAll() async {
        for tv in running { await tv.stop() }
    }

    /// Starts every TV of `plan`: Rokus, then Samsungs, then pre-2016 Samsungs, then LGs,
    /// then Android TVs. Returns those
    /// running, or none and why one could not start.
    static func launch(_ plan: SimulatorPlan, log: CommandLog) async -> (running: [any SimulatedTV], problem: String?) {
        var launcher = Launcher()
        var problem = await launcher.start(plan.rokus, naming: { "a Roku on \($0.host):\($0.port)" }) { options in
            let simulator = try await RokuSimulator.start(options, log: log)
            let what = options.kind == .tv ? "TV" : "stick"
            return (simulator, "roku \(what) \"\(simulator.name)\" serial \(simulator.serial) at \(simulator.location)")
        }
        if problem == nil {
            problem = await launcher.start(plan.samsungs, naming: { "a Samsung on \($0.host)" }) { options in
                let simulator = try await SamsungSimulator.start(options, log: log)
                return (
                    simulator,
                    "samsung\(options.frame ? " Frame" : "") TV \"\(simulator.name)\" \(simulator.duid) at"
                        + " \(simulator.host): REST/ws \(simulator.portWS), wss \(simulator.portWSS),"
                        + " UPnP \(simulator.portUPnP), pairing \(options.pairing.rawValue)"
                )
            }
        }
        if problem == nil {
            problem = await launcher.start(plan.samsungLegacies, naming: { "a legacy Samsung on \($0.host)" }) {
                options in
                let simulator = try await SamsungLegacySimulator.start(options, log: log)
                let ports =
                    options.encrypted
                    ? "encrypted H/J model, REST \(simulator.restPort ?? 0)" : "legacy remote \(simulator.port)"
                return (
                    simulator,
                    "samsung pre-2016 TV \"\(simulator.name)\" at \(simulator.host): \(ports),"
                        + " pairing \(options.pairing.rawValue)"
                )
            }
        }
        if problem == nil {
            problem = await launcher.start(plan.lgs, naming: { "an LG on \($0.host)" }) { options in
                let simulator = try await LGSimulator.start(options, log: log)
                let tls = simulator.portWSS.map { ", wss \($0)" } ?? " (plain model)"
                return (
                    simulator,
                    "lg TV \"\(simulator.name)\" \(simulator.udn) at \(simulator.host): ws \(simulator.portWS)\(tls),"
                        + " UPnP \(simulator.portUPnP), pairing \(options.pairing.rawValue), \(options.approval.rawValue)"
                )
            }
        }
        if problem == nil {
            problem = await launcher.start(plan.androidTVs, naming: { "an Android TV on \($0.host)" }) { options in
                let simulator = try await AndroidTVSimulator.start(options, log: log)
                return (
                    simulator,
                    "androidtv TV \"\(simulator.name)\" \(simulator.mac) at \(simulator.host): remote \(simulator.remotePort),"
                        + " pairing \(simulator.pairingPort), /sim/state \(simulator.simPort)"
                        + (simulator.mdnsPort.map { ", mDNS \($0)" } ?? "")
                )
            }
        }
        return (problem == nil ? launcher.running : [], problem)
    }
}
