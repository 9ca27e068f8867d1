import TVSimulators

/// `tvsim roku` and `tvsim fleet`: what to start, parsed from the command line.
struct SimulatorPlan {
    var rokus: [RokuSimulatorOptions] = []
    var samsungs: [SamsungSimulatorOptions] = []
    var samsungLegacies: [SamsungLegacySimulatorOptions] = []
    var lgs: [LGSimulatorOptions] = []
    var androidTVs: [AndroidTVSimulatorOptions] = []
    var logPath: String?

    static let rokuHelp = """
        usage: tvsim roku [options]
        Runs one simulated Roku (HTTP ECP, /sim/state, SSDP, Wake-on-LAN) until SIGTERM/SIGINT.
          --host IP              address to listen on (default 127.0.0.2; loopback only unless
                                 --allow-non-loopback)
          --port P               ECP port (default 8060; 0 = any free port)
          --kind tv|stick        a Roku TV (default, with a tuner: /query/tv-channels,
                                 /query/tv-active-channel, launch/tvinput.dtv?ch=7.1) or a
                                 streaming stick (supports-find-remote true)
          --name NAME            friendly name (default "Roku TV <last octet>")
          --serial SERIAL        serial number (default derived from the host)
          --limited              start in Limited mode (keys, media-player, tv-channels and
                                 tv-active-channel answer 403; device-info says
                                 ecp-setting-mode limited)
          --ecp-setting-mode M   "Control by mobile apps" as Roku OS 15.2.4 applies it:
                                 limited (as --limited), enabled or default (keypress,
                                 keydown and keyup over HTTP answer 403 Forbidden;
                                 device-info, queries, launch and ECP-2 keep working),
                                 permissive (everything works). Without it the TV says
                                 enabled and refuses nothing, as older firmware does.
                                 /sim/state {"ecp_setting_mode": M} changes it later;
                                 {"silent": true} makes the TV answer nothing (timeouts,
                                 as after an update that changed the setting) but
                                 /sim/state; {"software_version": "15.2.4"} updates it
          --ecp2 on|off          ECP-2 WebSocket sessions on /ecp-session (default off:
                                 the upgrade is answered 404, as older firmware does)
          --ssdp-port P          answer SSDP M-SEARCH on UDP port P (0 = any free port, reported)
          --wol-port P           wake from power off on Wake-on-LAN packets to UDP port P (0 = any free port, reported)
          --notify HOST:PORT     send NOTIFY ssdp:alive there at start and when woken (loopback)
          --log FILE             append the command log (JSON lines) to FILE (default stdout)
          --allow-non-loopback   allow a --host outside 127.0.0.0/8
        """

    static let fleetHelp = """
        usage: tvsim fleet --roku N [--samsung M] [--lg K] [--androidtv A] [options]
        Runs N simulated Rokus, then M simulated Samsungs, then K simulated LGs, then A simulated
        Android TVs, one per consecutive loopback address, sharing one command log.
          --roku N               number of Roku TVs
          --samsung M            number of Samsung TVs (default ports 8001, 8002, 9197)
          --lg K                 number of LG webOS TVs (ports 3000, 3001, 1754; pairing approved)
          --androidtv A          number of Android TVs (ports 6466, 6467, 6468)
          --first-host IP        address of the first TV (default 127.0.1.1)
          --port P               ECP port of every Roku (default 8060)
          --pairing MODE         Samsung pairing: accept (default), deny, ignore or tokenless
          --ssdp-port P          SSDP responders on UDP port P
          --wol-port P           Wake-on-LAN listeners on UDP port P
          --mdns-port P          the Android TVs' DNS-SD responders on UDP port P
          --notify HOST:PORT     NOTIFY ssdp:alive there at start and when woken (loopback)
          --ecp2 on|off          ECP-2 WebSocket sessions on every TV (default off)
          --log FILE             append the command log (JSON lines) to FILE (default stdout)
          --allow-non-loopback   allow addresses outside 127.0.0.0/8
        """

    /// nil when `--help` was asked for (the help was printed).
    static func roku(_ arguments: ArraySlice<String>) throws(UsageError) -> SimulatorPlan? {
        var options = RokuSimulatorOptions()
        var plan = SimulatorPlan()
        let go = try readFlags(arguments, into: &options, plan: &plan, help: rokuHelp, command: "roku") {
            flag, reader, options throws(UsageError) in
            switch flag {
            case "--port": options.port = try reader.port(for: flag, allowZero: true)
            case "--kind":
                let text = try reader.value(for: flag)
                guard let kind = RokuDeviceKind(rawValue: text) else {
                    throw UsageError("--kind: '\(text)' is not tv or stick")
                }
                options.kind = kind
            case "--name": options.name = try reader.value(for: flag)
            case "--serial": options.serial = try reader.value(for: flag)
            case "--limited": options.limited = true
            case "--ecp-setting-mode":
                let text = try reader.value(for: flag)
                guard let setting = RokuECPSetting(rawValue: text) else {
                    throw UsageError("--ecp-setting-mode: '\(text)' is not limited, enabled, default or permissive")
                }
                options.ecpSetting = setting
            case "--ecp2": options.ecp2 = try ecp2(try reader.value(for: flag))
            default: return false
            }
            return true
        }
        guard go else { return nil }
        plan.rokus = [options]
        return plan
    }

    static func fleet(_ arguments: ArraySlice<String>) throws(UsageError) -> SimulatorPlan? {
        var reader = ArgumentReader(arguments)
        var template = RokuSimulatorOptions()
        var samsungTemplate = SamsungSimulatorOptions()
        var plan = SimulatorPlan()
        var rokuCount = 0
        var samsungCount = 0
        var lgCount = 0
        var androidTVCount = 0
        var mdnsPort: UInt16?
        var firstHost = "127.0.1.1"
        var allowNonLoopback = false
        while let flag = reader.next() {
            switch flag {
            case "--help", "-h":
                print(fleetHelp)
                return nil
            case "--roku": rokuCount = try reader.count(for: flag)
            case "--samsung": samsungCount = try reader.count(for: flag)
            case "--lg": lgCount = try reader.count(for: flag)
            case "--androidtv": androidTVCount = try reader.count(for: flag)
            case "--mdns-port": mdnsPort = try reader.port(for: flag, allowZero: true)
            case "--first-host": firstHost = try reader.value(for: flag)
            case "--port": template.port = try reader.port(for: flag)
            case "--ssdp-port": template.ssdpPort = try reader.port(for: flag, allowZero: true)
            case "--wol-port": template.wolPort = try reader.port(for: flag, allowZero: true)
            case "--notify": template.notifyAddress = try notifyTarget(try reader.value(for: flag))
            case "--ecp2": template.ecp2 = try ecp2(try reader.value(for: flag))
            case "--pairing":
                let text = try reader.value(for: flag)
                guard let mode = SamsungPairingMode(rawValue: text) else {
                    throw UsageError("--pairing: '\(text)' is not accept, deny, ignore or tokenless")
                }
                samsungTemplate.pairing = mode
            case "--log": plan.logPath = try reader.value(for: flag)
            case "--allow-non-loopback": allowNonLoopback = true
            default: throw UsageError("unknown flag '\(flag)' for tvsim fleet (see tvsim fleet --help)")
            }
        }
        let total = rokuCount + samsungCount + lgCount + androidTVCount
        guard total > 0 else {
            throw UsageError(
                "tvsim fleet needs --roku N, --samsung M, --lg K and/or --androidtv A (at least one TV)")
        }
        guard let first = IPv4.parse(firstHost) else {
            throw UsageError("--first-host: '\(firstHost)' is not an IPv4 address")
        }
        guard UInt64(first) + UInt64(total) <= UInt64(UInt32.max) else {
            throw UsageError("--first-host \(firstHost): not enough addresses for \(total) TVs")
        }
        let last = IPv4.format(first + UInt32(total - 1))
        try checkHost(firstHost, allowNonLoopback: allowNonLoopback)
        try checkHost(last, allowNonLoopback: allowNonLoopback)
        plan.rokus = (0..<rokuCount).map { index in
            var options = template
            options.host = IPv4.format(first + UInt32(index))
            return options
        }
        // The Samsungs take the addresses after the Rokus, sharing SSDP, WoL and NOTIFY settings.
        samsungTemplate.ssdpPort = template.ssdpPort
        samsungTemplate.wolPort = template.wolPort
        samsungTemplate.notifyAddress = template.notifyAddress
        plan.samsungs = (0..<samsungCount).map { index in
            var options = samsungTemplate
            options.host = IPv4.format(first + UInt32(rokuCount + index))
            return options
        }
        plan.lgs = (0..<lgCount).map { index in
            var options = LGSimulatorOptions(
                host: IPv4.format(first + UInt32(rokuCount + samsungCount + index)), ssdpPort: template.ssdpPort,
                wolPort: template.wolPort)
            options.notifyAddress = template.notifyAddress
            return options
        }
        plan.androidTVs = (0..<androidTVCount).map { index in
            var options = AndroidTVSimulatorOptions()
            options.host = IPv4.format(first + UInt32(rokuCount + samsungCount + lgCount + index))
            options.simPort = 0
            options.mdnsPort = mdnsPort
            options.wolPort = template.wolPort
            return options
        }
        return plan
    }

    private static func ecp2(_ value: String) throws(UsageError) -> Bool {
        switch value {
        case "off": return false
        case "on": return true
        default: throw UsageError("--ecp2: '\(value)' is not on or off")
        }
    }

    static func notifyTarget(_ value: String) throws(UsageError) -> String {
        guard let colon = value.lastIndex(of: ":"), UInt16(value[value.index(after: colon)...]) != nil,
            IPv4.isLoopback(String(value[..<colon]).trimmingBrackets)
        else { throw UsageError("--notify: '\(value)' is not a loopback HOST:PORT") }
        return value
    }
}

extension String {
    var trimmingBrackets: String {
        hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : self
    }
}
