import TVSimulators

/// `tvsim lg`: one simulated LG webOS TV, parsed from the command line.
extension SimulatorPlan {
    static let lgHelp = """
        usage: tvsim lg [options]
        Runs one simulated LG webOS TV (SSAP over WebSocket in clear on 3000 and over TLS on 3001
        with a self-signed certificate, prompt or PIN pairing, the pointer input socket,
        subscriptions, the power states, icons, /sim/state on 3000, a UPnP description, SSDP,
        Wake-on-LAN) until SIGTERM/SIGINT. What it speaks: Sources/TVSimulators/LG/README.md.
          --host IP              address to listen on (default 127.0.0.7; loopback only unless
                                 --allow-non-loopback)
          --port-ws P            SSAP in clear, pointer socket, icons and /sim/state (default 3000;
                                 0 = any free port)
          --port-wss P           SSAP over TLS (default 3001; 0 = any free port)
          --port-upnp P          the UPnP description SSDP points to (default 1754; 0 = any)
          --plain                a model with no TLS port (only --port-ws speaks SSAP)
          --tls-only             newer firmware: --port-ws refuses the SSAP WebSocket (403), its HTTP
                                 (icons, /sim/state) still answers; clients must use TLS
          --name NAME            friendly name (default "[LG] webOS TV <model>")
          --model MODEL          model name (default OLED55C1AUB)
          --pairing MODE         prompt (default: the client chooses PROMPT or PIN) or pin (always a PIN)
          --approve WHAT         approve (default), deny or ignore the prompt or PIN screen
          --pin DIGITS           the PIN the TV shows (default 12345678)
          --standby MODE         where turnOff goes: active (Active Standby, network kept; default)
                                 or suspend (Suspend: connections closed until Wake-on-LAN)
          --volume-form FORM     audio/getVolume as webOS 5+ (nested, default: volumeStatus) or
                                 webOS 3-4 (flat: volume, muted)
          --ssdp-port P          answer SSDP M-SEARCH on UDP port P (0 = any free port, reported)
          --wol-port P           wake from standby on Wake-on-LAN packets to UDP port P (0 = any, reported)
          --notify HOST:PORT     send NOTIFY ssdp:alive there at start and when woken (loopback)
          --log FILE             append the command log (JSON lines) to FILE (default stdout)
          --allow-non-loopback   allow a --host outside 127.0.0.0/8
        """

    /// nil when `--help` was asked for (the help was printed).
    static func lg(_ arguments: ArraySlice<String>) throws(UsageError) -> SimulatorPlan? {
        var options = LGSimulatorOptions()
        var plan = SimulatorPlan()
        let go = try readFlags(arguments, into: &options, plan: &plan, help: lgHelp, command: "lg") {
            flag, reader, options throws(UsageError) in
            switch flag {
            case "--port-ws": options.portWS = try reader.port(for: flag, allowZero: true)
            case "--port-wss": options.portWSS = try reader.port(for: flag, allowZero: true)
            case "--port-upnp": options.portUPnP = try reader.port(for: flag, allowZero: true)
            case "--plain": options.plain = true
            case "--tls-only": options.tlsOnly = true
            case "--name": options.name = try reader.value(for: flag)
            case "--model": options.model = try reader.value(for: flag)
            case "--pairing": options.pairing = try choice(flag, &reader)
            case "--approve": options.approval = try choice(flag, &reader)
            case "--standby": options.standby = try choice(flag, &reader)
            case "--volume-form": options.volumeForm = try choice(flag, &reader)
            case "--pin":
                let pin = try reader.value(for: flag)
                guard !pin.isEmpty, pin.count <= 16, pin.allSatisfy(\.isNumber) else {
                    throw UsageError("--pin: '\(pin)' is not 1 to 16 digits")
                }
                options.pin = pin
            default: return false
            }
            return true
        }
        guard go else { return nil }
        if options.plain && options.tlsOnly { throw UsageError("--plain and --tls-only exclude each other") }
        let ports = [options.portWS, options.plain ? 0 : options.portWSS, options.portUPnP].filter { $0 != 0 }
        guard Set(ports).count == ports.count else {
            throw UsageError("--port-ws, --port-wss and --port-upnp must differ")
        }
        plan.lgs = [options]
        return plan
    }

    /// A flag's value as one of `Choice`'s raw values.
    private static func choice<Choice: RawRepresentable<String> & CaseIterable>(
        _ flag: String, _ reader: inout ArgumentReader
    ) throws(UsageError) -> Choice {
        let text = try reader.value(for: flag)
        guard let value = Choice(rawValue: text) else {
            let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("\(flag): '\(text)' is not one of \(names)")
        }
        return value
    }
}
