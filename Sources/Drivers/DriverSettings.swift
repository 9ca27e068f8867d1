import Net
import Support

/// What every driver needs from the configuration (README › Configuration), without depending on the
/// bridge's configuration types. A vendor's own settings are its section's (`VendorSettings`).
public struct DriverSettings: Sendable {
    /// Where a Wake-on-LAN packet goes: an IP address (broadcast, directed broadcast or
    /// unicast) and a UDP port.
    public struct WakeTarget: Sendable, Equatable, CustomStringConvertible {
        public var host: String
        public var port: UInt16

        public init(host: String, port: UInt16) {
            self.host = host
            self.port = port
        }

        public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    public var wolTargets: [WakeTarget]
    /// Rounds of magic packets per target and MAC.
    public var wolRepeat: Int
    public var connectTimeout: Duration
    public var requestTimeout: Duration
    /// How long power ON waits for a TV woken by Wake-on-LAN to answer before it sends the
    /// power-on key (a TV in deep sleep takes a few seconds to bring its network up).
    public var wakeWait: Duration
    /// The bridge's own certificate, for TVs that pair with a client certificate (kept in the
    /// state directory by the bridge; a fresh one per process by default).
    public var clientIdentity: TLSIdentitySource
    public var logger: Logger

    public init(
        wolTargets: [WakeTarget] = [WakeTarget(host: "255.255.255.255", port: 9)], wolRepeat: Int = 3,
        connectTimeout: Duration = .seconds(3), requestTimeout: Duration = .seconds(5),
        wakeWait: Duration = .seconds(4), clientIdentity: TLSIdentitySource = .ephemeral(commonName: "tv2mqtt"),
        logger: Logger = .disabled
    ) {
        self.wolTargets = wolTargets
        self.wolRepeat = wolRepeat
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.wakeWait = wakeWait
        self.clientIdentity = clientIdentity
        self.logger = logger
    }
}
