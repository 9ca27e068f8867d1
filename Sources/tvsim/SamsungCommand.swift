import TVSimulators

/// `tvsim samsung`: one simulated Samsung Tizen TV, parsed from the command line.
extension SimulatorPlan {
    static let samsungHelp = """
        usage: tvsim samsung [options]
        Runs one simulated Samsung Tizen TV (REST and the remote WebSocket on the plain port,
        the remote WebSocket over TLS with token pairing, UPnP RenderingControl, /sim/state,
        SSDP, Wake-on-LAN) until SIGTERM/SIGINT.
          --host IP              address to listen on (default 127.0.0.3; loopback only unless
                                 --allow-non-loopback)
          --port-ws P            REST and plain WebSocket port (default 8001; 0 = any free port)
          --port-wss P           TLS WebSocket port (default 8002; 0 = any free port)
          --port-upnp P          UPnP port (default 9197; 0 = any free port)
          --name NAME            friendly name (default "[TV] Samsung <last octet>")
          --model MODEL          model name (default QE55Q60TAUXXU)
          --pairing MODE         accept (default), deny, ignore or tokenless
          --prompt-timeout S     seconds before an ignored prompt times out (default 30)
          --frame                a Frame TV: the art channel (com.samsung.art-app), KEY_POWER toggles art mode, hold 3 s to power off
          --art-firmware Y      with --frame: the art channel of a 2019 (default), 2023 or 2025 Frame
                                 (2023: replies named after the request, with request_id; 2025: also
                                 REST PowerState "standby" while art shows, model code 25_PTM_FTV)
          --apps on|off          answer ed.installedApp.get (default on)
          --events on|off        accept UPnP event subscriptions (default on; off answers 412)
          --event-timeout S      longest event subscription granted, seconds (default 1800)
          --ssdp-port P          answer SSDP M-SEARCH on UDP port P (0 = any free port, reported)
          --wol-port P           wake from standby/off on Wake-on-LAN packets to UDP port P (0 = any, reported)
          --notify HOST:PORT     send NOTIFY ssdp:alive there at start and when woken (loopback)
          --log FILE             append the command log (JSON lines) to FILE (default stdout)
          --allow-non-loopback   allow a --host outside 127.0.0.0/8
          --legacy               a pre-2016 TV instead: the legacy remote protocol on TCP 55000 with
                                 its allow prompt (--pairing accept|deny|ignore), keys logged as
                                 legacy_key, SSDP RemoteControlReceiver:1, no REST API; KEY_POWEROFF
                                 closes the port (--port-legacy P: another port, 0 = any free port);
                                 --wol-port P: wakes on a magic packet, as some 2013-2015 sets do
          --encrypted            with --legacy: a 2014-2015 H/J model (GET /ms/1.0/ on --port-ws only)
        """

    /// nil when `--help` was asked for (the help was printed).
    static func samsung(_ arguments: ArraySlice<String>) throws(UsageError) -> SimulatorPlan? {
        var options = SamsungSimulatorOptions()
        var plan = SimulatorPlan()
        var (legacy, encrypted, legacyPort) = (false, false, UInt16(55000))
        let go = try readFlags(arguments, into: &options, plan: &plan, help: samsungHelp, command: "samsung") {
            flag, reader, options throws(UsageError) in
            switch flag {
            case "--port-ws": options.portWS = try reader.port(for: flag, allowZero: true)
            case "--port-wss": options.portWSS = try reader.port(for: flag, allowZero: true)
            case "--port-upnp": options.portUPnP = try reader.port(for: flag, allowZero: true)
            case "--name": options.name = try reader.value(for: flag)
            case "--model": options.model = try reader.value(for: flag)
            case "--pairing":
                let text = try reader.value(for: flag)
                guard let mode = SamsungPairingMode(rawValue: text) else {
                    throw UsageError("--pairing: '\(text)' is not accept, deny, ignore or tokenless")
                }
                options.pairing = mode
            case "--prompt-timeout":
                let text = try reader.value(for: flag)
                guard let seconds = Int(text), (1...3600).contains(seconds) else {
                    throw UsageError("--prompt-timeout: '\(text)' is not a number of seconds (1-3600)")
                }
                options.promptTimeout = .seconds(seconds)
            case "--frame": options.frame = true
            case "--art-firmware":
                let text = try reader.value(for: flag)
                guard let firmware = SamsungArtFirmware(rawValue: text) else {
                    throw UsageError("--art-firmware: '\(text)' is not 2019, 2023 or 2025")
                }
                options.artFirmware = firmware
            case "--apps": options.apps = try onOff(try reader.value(for: flag), flag: flag)
            case "--events": options.acceptsSubscriptions = try onOff(try reader.value(for: flag), flag: flag)
            case "--event-timeout":
                let text = try reader.value(for: flag)
                guard let seconds = Int(text), (1...86_400).contains(seconds) else {
                    throw UsageError("--event-timeout: '\(text)' is not a number of seconds (1-86400)")
                }
                options.eventTimeoutSeconds = seconds
            case "--legacy": legacy = true
            case "--encrypted": encrypted = true
            case "--port-legacy": legacyPort = try reader.port(for: flag, allowZero: true)
            default: return false
            }
            return true
        }
        guard go else { return nil }
        if legacy || encrypted {
            guard legacy else { throw UsageError("--encrypted needs --legacy") }
            plan.samsungLegacies = [legacyOptions(options, port: legacyPort, encrypted: encrypted)]
            return plan
        }
        let ports = [options.portWS, options.portWSS, options.portUPnP].filter { $0 != 0 }
        guard Set(ports).count == ports.count else {
            throw UsageError("--port-ws, --port-wss and --port-upnp must differ")
        }
        plan.samsungs = [options]
        return plan
    }

    static func onOff(_ value: String, flag: String) throws(UsageError) -> Bool {
        switch value {
        case "on": return true
        case "off": return false
        default: throw UsageError("\(flag): '\(value)' is not on or off")
        }
    }

    /// `--legacy`: the options that apply to a pre-2016 TV, from those parsed.
    static func legacyOptions(_ options: SamsungSimulatorOptions, port: UInt16, encrypted: Bool)
        -> SamsungLegacySimulatorOptions
    {
        var legacy = SamsungLegacySimulatorOptions(
            host: options.host, port: port, name: options.name, pairing: options.pairing,
            promptTimeout: options.promptTimeout, ssdpPort: options.ssdpPort, encrypted: encrypted,
            restPort: options.portWS)
        legacy.ssdpAnswerWindow = options.ssdpAnswerWindow
        legacy.wolPort = options.wolPort
        return legacy
    }
}
