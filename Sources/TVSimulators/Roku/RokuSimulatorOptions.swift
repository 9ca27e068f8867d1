/// A Roku TV (with tuner, inputs, volume and power keys) or a streaming stick.
public enum RokuDeviceKind: String, Sendable, CaseIterable {
    case tv
    case stick
}

/// How to start a simulated Roku.
public struct RokuSimulatorOptions: Sendable {
    /// The address the ECP listener binds to. Loopback addresses (127.0.0.0/8) give every
    /// simulated TV an address of its own without touching the network.
    public var host: String
    /// The ECP port; 0 picks a free port (tests), read back from `RokuSimulator.port`.
    public var port: UInt16
    public var kind: RokuDeviceKind
    /// Friendly name; default "Roku TV <last octet>" or "Roku Stick <last octet>".
    public var name: String?
    /// Serial number; default derived from the host (and the port when it is not 8060), stable.
    public var serial: String?
    /// Starts in Limited mode ("Control by mobile apps" = Limited): keys and media-player 403.
    public var limited: Bool
    /// Starts with this "Control by mobile apps" setting (`RokuECPSetting`); nil is firmware
    /// before Roku OS 15.2.4 (or Limited, with `limited`).
    public var ecpSetting: RokuECPSetting?
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
    /// Speaks ECP-2 on `/ecp-session` (challenge, events, key-press, launch, queries). Off, the
    /// upgrade is answered 404, as older firmware does.
    public var ecp2: Bool
    /// The key this TV expects answers to be computed with; nil is the real one. Another key
    /// makes a TV that refuses tv2mqtt's authentication (tests).
    public var ecp2Key: String?

    public init(
        host: String = "127.0.0.2", port: UInt16 = 8060, kind: RokuDeviceKind = .tv,
        name: String? = nil,
        serial: String? = nil, limited: Bool = false, ssdpPort: UInt16? = nil, wolPort: UInt16? = nil,
        notifyAddress: String? = nil, ecp2: Bool = false, ecp2Key: String? = nil,
        ecpSetting: RokuECPSetting? = nil
    ) {
        self.host = host
        self.port = port
        self.kind = kind
        self.name = name
        self.serial = serial
        self.limited = limited
        self.ssdpPort = ssdpPort
        self.wolPort = wolPort
        self.notifyAddress = notifyAddress
        self.ecp2 = ecp2
        self.ecp2Key = ecp2Key
        self.ecpSetting = ecpSetting
    }
}
