import Support

/// What every driver needs from the configuration (README › Configuration), without depending on the
/// bridge's configuration types.
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

    /// `roku.ecp2`: whether a Roku driver opens an ECP-2 session.
    public enum RokuECP2: String, Sendable, Equatable {
        /// Open an ECP-2 session where the Roku offers one.
        case auto
        /// HTTP ECP only.
        case off
    }

    public var wolTargets: [WakeTarget]
    /// Rounds of magic packets per target and MAC.
    public var wolRepeat: Int
    public var rokuECP2: RokuECP2
    /// `samsung.client_name`, for the Samsung driver.
    public var samsungClientName: String
    /// `samsung.apps`: app name → id.
    public var samsungApps: [String: String]
    /// `samsung.inputs`: input name → the keys that select it (empty: `SamsungInputs.defaults`).
    public var samsungInputs: [String: [String]]
    public var connectTimeout: Duration
    public var requestTimeout: Duration
    /// How long power ON waits for a TV woken by Wake-on-LAN to answer before it sends the
    /// power-on key (a TV in deep sleep takes a few seconds to bring its network up).
    public var wakeWait: Duration
    public var logger: Logger

    public init(
        wolTargets: [WakeTarget] = [WakeTarget(host: "255.255.255.255", port: 9)], wolRepeat: Int = 3,
        rokuECP2: RokuECP2 = .auto, samsungClientName: String = "tv2mqtt",
        samsungApps: [String: String] = [:], samsungInputs: [String: [String]] = [:],
        connectTimeout: Duration = .seconds(3), requestTimeout: Duration = .seconds(5),
        wakeWait: Duration = .seconds(4),
        logger: Logger = .disabled
    ) {
        self.wolTargets = wolTargets
        self.wolRepeat = wolRepeat
        self.rokuECP2 = rokuECP2
        self.samsungClientName = samsungClientName
        self.samsungApps = samsungApps
        self.samsungInputs = samsungInputs
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.wakeWait = wakeWait
        self.logger = logger
    }
}
