/// How to start a simulated pre-2016 Samsung (`tvsim samsung --legacy`).
public struct SamsungLegacySimulatorOptions: Sendable {
    /// The address every listener binds to (a loopback address gives each TV its own).
    public var host: String
    /// The legacy remote port (55000); 0 picks a free port, read back from the simulator.
    public var port: UInt16
    public var name: String?
    /// What the allow prompt answers a client it has not seen: accept, deny or ignore
    /// (`tokenless` is treated as accept: the legacy protocol has no tokens).
    public var pairing: SamsungPairingMode
    /// How long an ignored prompt lasts before the TV sends its timeout reply (`65 00`).
    public var promptTimeout: Duration
    /// UDP port of the SSDP responder (RemoteControlReceiver:1); nil = none, 0 = any free port.
    public var ssdpPort: UInt16?
    /// Shortens the random SSDP answer delay (see `SamsungSimulatorOptions.ssdpAnswerWindow`).
    public var ssdpAnswerWindow: Duration? = nil
    /// A 2014–2015 H/J model instead: no legacy port; `GET /ms/1.0/` answers on `restPort`
    /// (the encrypted PIN pairing itself is not simulated, as tv2mqtt does not speak it).
    public var encrypted: Bool
    /// The REST port of an `encrypted` model (8001; 0 = any free port).
    public var restPort: UInt16
    /// UDP port of a Wake-on-LAN listener (some 2013–2015 sets wake on a magic packet to their
    /// Ethernet MAC, `wakeMAC`); nil = none (most legacy TVs), 0 = any free port.
    public var wolPort: UInt16? = nil
    public var wakeMAC = "f4:7b:5e:00:00:55"

    public init(
        host: String = "127.0.0.4", port: UInt16 = 55000, name: String? = nil, pairing: SamsungPairingMode = .accept,
        promptTimeout: Duration = .seconds(30), ssdpPort: UInt16? = nil, encrypted: Bool = false,
        restPort: UInt16 = 8001
    ) {
        self.host = host
        self.port = port
        self.name = name
        self.pairing = pairing
        self.promptTimeout = promptTimeout
        self.ssdpPort = ssdpPort
        self.encrypted = encrypted
        self.restPort = restPort
    }
}
