import TVSimulators

/// `tvsim androidtv`: one simulated Android TV, parsed from the command line.
extension SimulatorPlan {
    static let androidTVHelp = """
        usage: tvsim androidtv [options]
        Runs one simulated Android TV (Google TV): pairing over TLS on 6467 (the code it shows goes
        to the log and /sim/state), the remote protocol over TLS on 6466 for paired clients only,
        pushed power, app and volume, pings, /sim/state over HTTP on 6468, until SIGTERM/SIGINT.
        It answers DNS-SD browses (mDNS) for _androidtvremote2._tcp with --mdns-port.
          --host IP              address to listen on (default 127.0.0.9; loopback only unless
                                 --allow-non-loopback)
          --remote-port P        the remote protocol (default 6466; 0 = any free port)
          --pairing-port P       pairing (default 6467; 0 = any free port)
          --sim-port P           /sim/state (default 6468; 0 = any free port)
          --mdns-port P          answer DNS-SD browses on UDP port P (0 = any free port, reported)
          --wol-port P           wake from deep sleep (power off) on Wake-on-LAN packets to UDP port P
          --name NAME            the name in its certificate (default "Living Room TV")
          --model MODEL          model (default "BRAVIA 4K UR3")
          --fault FAULT          never-configure, pairing-refused or garbage
          --log FILE             append the command log (JSON lines) to FILE (default stdout)
          --allow-non-loopback   allow a --host outside 127.0.0.0/8
        """

    /// nil when `--help` was asked for (the help was printed).
    static func androidTV(_ arguments: ArraySlice<String>) throws(UsageError) -> SimulatorPlan? {
        var options = AndroidTVSimulatorOptions()
        var plan = SimulatorPlan()
        var reader = ArgumentReader(arguments)
        var allowNonLoopback = false
        while let flag = reader.next() {
            switch flag {
            case "--host": options.host = try reader.value(for: flag)
            case "--remote-port": options.remotePort = try reader.port(for: flag, allowZero: true)
            case "--pairing-port": options.pairingPort = try reader.port(for: flag, allowZero: true)
            case "--sim-port": options.simPort = try reader.port(for: flag, allowZero: true)
            case "--mdns-port": options.mdnsPort = try reader.port(for: flag, allowZero: true)
            case "--wol-port": options.wolPort = try reader.port(for: flag, allowZero: true)
            case "--name": options.name = try reader.value(for: flag)
            case "--model": options.model = try reader.value(for: flag)
            case "--fault":
                let text = try reader.value(for: flag)
                guard let fault = AndroidTVFault(rawValue: text) else {
                    let names = AndroidTVFault.allCases.map(\.rawValue).joined(separator: ", ")
                    throw UsageError("--fault: '\(text)' is not one of \(names)")
                }
                options.fault = fault
            case "--log": plan.logPath = try reader.value(for: flag)
            case "--allow-non-loopback": allowNonLoopback = true
            case "--help", "-h":
                print(androidTVHelp)
                return nil
            default: throw UsageError("unknown flag '\(flag)' for tvsim androidtv (see tvsim androidtv --help)")
            }
        }
        try checkHost(options.host, allowNonLoopback: allowNonLoopback)
        let ports = [options.remotePort, options.pairingPort, options.simPort].filter { $0 != 0 }
        guard Set(ports).count == ports.count else {
            throw UsageError("--remote-port, --pairing-port and --sim-port must differ")
        }
        plan.androidTVs = [options]
        return plan
    }
}
