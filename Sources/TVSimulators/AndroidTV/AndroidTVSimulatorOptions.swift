import Net

/// How a simulated Android TV is set up (`tvsim androidtv` flags).
public struct AndroidTVSimulatorOptions: Sendable {
    public var host = "127.0.0.9"
    /// The remote protocol (TLS; only paired client certificates).
    public var remotePort: UInt16 = 6466
    /// Pairing (TLS; any client certificate).
    public var pairingPort: UInt16 = 6467
    /// `/sim/state` over HTTP: a real TV has no such port.
    public var simPort: UInt16 = 6468
    public var name = "Living Room TV"
    public var model = "BRAVIA 4K UR3"
    public var manufacturer = "Sony"
    /// The features offered in RemoteConfigure (623: ping, key, IME, voice, power, volume, app link).
    public var features: UInt64 = 623
    /// The TV pings every `pingInterval` while a remote session is open.
    public var pingInterval: Duration = .seconds(5)
    public var fault: AndroidTVFault?
    public var ssdpPort: UInt16?
    public var wolPort: UInt16?
    /// Answers DNS-SD browses here (shared with other TVs, as SSDP's port); nil: none, 0: any free port.
    public var mdnsPort: UInt16?

    public init() {}
}

/// How a simulated Android TV misbehaves on purpose, for the bad-input tests.
public enum AndroidTVFault: String, CaseIterable, Sendable {
    /// The remote session opens, but the TV never sends RemoteConfigure (nor pings).
    case neverConfigure = "never-configure"
    /// Pairing answers the request with status 400.
    case pairingRefused = "pairing-refused"
    /// The remote port answers with bytes that are no protobuf.
    case garbage
}
