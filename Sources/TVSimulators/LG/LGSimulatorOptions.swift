/// How the simulated TV asks a new client to pair.
public enum LGPairingMode: String, Sendable, CaseIterable {
    /// The client chooses: a `PROMPT` registration shows the prompt, a `PIN` one shows a PIN.
    case prompt
    /// The TV shows a PIN whatever the client asked; the client sends it with `pairing/setPin`.
    case pin
}

/// What the "user" does with the prompt (or the PIN screen).
public enum LGApproval: String, Sendable, CaseIterable {
    /// Accepts at once: `registered` with a new client key.
    case approve
    /// Refuses: `403 User denied access`.
    case deny
    /// Nobody answers: nothing is ever sent for that registration.
    case ignore
}

/// Where `system/turnOff` takes the TV.
public enum LGStandby: String, Sendable, CaseIterable {
    /// Network kept: sockets stay open, reads answer (Quick Start+ / "Always Ready").
    case active
    /// Network down: every connection closed and the ports stop listening until Wake-on-LAN.
    case suspend
}

/// Which shape `audio/getVolume` answers in.
public enum LGVolumeForm: String, Sendable, CaseIterable {
    /// webOS 5 and later: everything inside `volumeStatus`.
    case nested
    /// webOS 3-4: `volume` and `muted` at the top.
    case flat
}

/// How to start a simulated LG webOS TV.
public struct LGSimulatorOptions: Sendable {
    /// The address every listener binds to (a loopback address gives each TV its own).
    public var host: String
    /// SSAP in clear, the pointer socket, icons and `/sim/state` (3000); 0 picks a free port.
    public var portWS: UInt16
    /// SSAP over TLS (3001); 0 picks a free port. Unused with `plain`.
    public var portWSS: UInt16
    /// The UPnP description SSDP points to (1754); 0 picks a free port.
    public var portUPnP: UInt16
    /// A model with no TLS port: only `portWS` speaks SSAP.
    public var plain = false
    /// Newer firmware: `portWS` refuses the SSAP WebSocket (403), so clients use TLS; its HTTP
    /// (icons, `/sim/state`) still answers. Ignored with `plain`.
    public var tlsOnly = false
    public var pairing: LGPairingMode = .prompt
    public var approval: LGApproval = .approve
    /// The PIN the TV "shows" in the PIN flow.
    public var pin = "12345678"
    public var standby: LGStandby = .active
    public var volumeForm: LGVolumeForm = .nested
    /// Friendly name; default "[LG] webOS TV <model>".
    public var name: String?
    /// Model name; default "OLED55C1AUB".
    public var model: String?
    /// UDP port of the SSDP responder; nil = none, 0 = one the kernel picks, shared otherwise.
    public var ssdpPort: UInt16?
    /// How long the SSDP responder may wait before answering a broadcast search (nil: within MX).
    public var ssdpAnswerWindow: Duration? = nil
    /// UDP port of the Wake-on-LAN listener; nil = none, 0 = one the kernel picks.
    public var wolPort: UInt16?
    /// "HOST:PORT" to send NOTIFY ssdp:alive to at start and when woken (loopback only).
    public var notifyAddress: String?
    /// How long turnOff's "processing" power state lasts before the standby state is pushed.
    public var powerTransition: Duration = .milliseconds(150)

    public init(
        host: String = "127.0.0.7", portWS: UInt16 = 3000, portWSS: UInt16 = 3001, portUPnP: UInt16 = 1754,
        ssdpPort: UInt16? = nil, wolPort: UInt16? = nil
    ) {
        self.host = host
        self.portWS = portWS
        self.portWSS = portWSS
        self.portUPnP = portUPnP
        self.ssdpPort = ssdpPort
        self.wolPort = wolPort
    }
}
