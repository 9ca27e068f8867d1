/// What the simulated TV does when a client without a valid token opens the remote channel on
/// the TLS port (a real TV shows an "Allow this device?" prompt).
public enum SamsungPairingMode: String, Sendable, CaseIterable {
    /// The user allows at once: `ms.channel.connect` with a new numeric token.
    case accept
    /// The user denies: `ms.channel.unauthorized`, then the channel closes.
    case deny
    /// Nobody answers the prompt: silence, then `ms.channel.timeOut` after `promptTimeout`.
    case ignore
    /// Allowed, but no token is ever issued (some Tizen 7/8 sets): every connection "prompts".
    case tokenless
}

/// How to start a simulated Samsung Tizen TV.
public struct SamsungSimulatorOptions: Sendable {
    /// The address every listener binds to (a loopback address gives each TV its own).
    public var host: String
    /// REST and the plain remote channel (8001); 0 picks a free port, read back from the simulator.
    public var portWS: UInt16
    /// The TLS remote channel (8002); 0 picks a free port.
    public var portWSS: UInt16
    /// UPnP RenderingControl (9197); 0 picks a free port.
    public var portUPnP: UInt16
    /// Friendly name (`device.name`); default "[TV] Samsung <last octet>".
    public var name: String?
    public var pairing: SamsungPairingMode
    /// A Frame TV: `FrameTVSupport` true, KEY_POWER toggles art mode, a 3 s hold powers off.
    public var frame: Bool
    /// With `frame`: which generation's art channel (and REST power reading) to speak.
    public var artFirmware: SamsungArtFirmware = .y2019
    /// Answers `ed.installedApp.get`; false = never answers, like newer firmware.
    public var apps: Bool
    /// UDP port of the SSDP responder; nil = none, 0 = one the kernel picks (read back from
    /// the simulator's `ssdpPort`), a number = that port, shared with other TVs (`SharedUDPPort`).
    public var ssdpPort: UInt16?
    /// How long the SSDP responder may wait before answering a multicast or broadcast search:
    /// nil = a random delay within the search's MX, as UPnP says (`tvsim`, fleets); tests
    /// that search with a tight deadline on a busy machine shorten it.
    public var ssdpAnswerWindow: Duration? = nil
    /// UDP port of the Wake-on-LAN listener; nil = none, 0 = one the kernel picks (read back
    /// from the simulator's `wolPort`), a number = that port, shared with other TVs.
    public var wolPort: UInt16?
    /// "HOST:PORT" to send NOTIFY ssdp:alive to at start and when woken (loopback only).
    public var notifyAddress: String?
    /// `device.modelName`; default "QE55Q60TAUXXU" (a Frame: "QE55LS03TAUXXU").
    public var model: String?
    /// How long an unanswered prompt (`pairing: .ignore`) lasts before `ms.channel.timeOut`;
    /// a real TV gives up after about 30 s. Tests shorten it.
    public var promptTimeout: Duration
    /// The longest UPnP event subscription granted, in seconds (a subscriber asking for more
    /// gets this); tests shorten it to see renewals.
    public var eventTimeoutSeconds = 1800
    /// How long a Frame's KEY_POWER must be held to power off (a shorter hold swaps TV and art);
    /// a real Frame takes about 3 s. Driver tests shorten it: a busy machine may read the Press
    /// late, and the time between the two as read is then shorter than the hold sent.
    public var framePowerHold: Duration = .seconds(3)
    /// Whether UPnP event subscriptions are accepted; false answers every SUBSCRIBE with 412,
    /// as TVs whose renderer does not event do (`setAcceptsSubscriptions` changes it later).
    public var acceptsSubscriptions = true

    public init(
        host: String = "127.0.0.3", portWS: UInt16 = 8001, portWSS: UInt16 = 8002,
        portUPnP: UInt16 = 9197, name: String? = nil, pairing: SamsungPairingMode = .accept,
        frame: Bool = false, apps: Bool = true, ssdpPort: UInt16? = nil, wolPort: UInt16? = nil,
        notifyAddress: String? = nil, model: String? = nil, promptTimeout: Duration = .seconds(30)
    ) {
        self.host = host
        self.portWS = portWS
        self.portWSS = portWSS
        self.portUPnP = portUPnP
        self.name = name
        self.pairing = pairing
        self.frame = frame
        self.apps = apps
        self.ssdpPort = ssdpPort
        self.wolPort = wolPort
        self.notifyAddress = notifyAddress
        self.model = model
        self.promptTimeout = promptTimeout
    }
}
