import Drivers
import HomeAssistant
import MQTTInterface
import TVModel

/// The effective configuration of one tv2mqtt instance (README › Configuration), after defaults,
/// the file, the environment and the command line were merged and validated.
public struct BridgeConfiguration: Sendable, Equatable {
    public struct MQTT: Sendable, Equatable {
        public init() {}

        public var server = BrokerAddress(useTLS: false, host: "localhost", port: 1883)
        public var user = ""
        /// A secret: never logged, never published, masked by `check-config`.
        public var password = ""
        public var clientID = "tv2mqtt"
        public var keepalive = 60
        public var ca = ""
        public var cert = ""
        public var key = ""
        public var rejectUnauthorized = true
    }

    public struct HomeAssistantOptions: Sendable, Equatable {
        public init() {}

        public typealias Style = DiscoverySettings.Style
        public var enabled = true
        public var discoveryPrefix = "homeassistant"
        public var statusTopic = Topics.defaultHomeAssistantStatus
        public var style = Style.device
        public var mergeWithNativeDevices = false
    }

    /// Finding TVs (the file's `discovery` section): SSDP search and announcements, mDNS, the
    /// network scan. Not Home Assistant discovery, which `homeAssistant` configures.
    public struct Discovery: Sendable, Equatable {
        public init() {}

        public var ssdp = true
        public var ssdpAddress = HostPort(host: "239.255.255.250", port: 1900)
        /// DNS-SD over multicast DNS, for the vendors that declare service types (`Vendor.mdnsServices`).
        public var mdns = true
        public var mdnsAddress = HostPort(host: "224.0.0.251", port: 5353)
        /// Interfaces to search and listen on (names or IPv4 addresses); empty = the default route's.
        public var interfaces: [String] = []
        /// Seconds between SSDP searches; 0 = search once at startup only.
        public var searchInterval = 300
        public var scan: [CIDR] = []
        /// `discovery.scan_ports`; nil: the vendors' (`ports(scannedFor:)`).
        public var scanPorts: [UInt16]?

        /// The ports a scan probes: `scan_ports`, else the default ports of the vendors a
        /// device of unknown kind is probed as.
        public func ports(scannedFor vendors: [Vendor]) -> [UInt16] { scanPorts ?? vendors.defaultScanPorts }
    }

    public struct WakeOnLAN: Sendable, Equatable {
        public init() {}

        public var targets = [HostPort(host: "255.255.255.255", port: 9)]
        public var repeatCount = 3
    }

    /// Adding TVs by request (`bridge/request/tv/add`, the bridge device's "Add TV" button):
    /// where such a request may make the bridge connect.
    public struct AddTV: Sendable, Equatable {
        public init() {}

        /// `add_tv.allow_loopback`: addresses of this machine (127.0.0.0/8, ::1) may be added,
        /// for simulated TVs and tests. Off: whoever may publish a request cannot reach the
        /// bridge's own services with it.
        public var allowLoopback = false
        /// `add_tv.ports`: ports allowed besides the ones TVs answer on (each vendor's default port, `Vendor.defaultPort`).
        public var ports: [UInt16] = []
    }

    /// The status page (`http`): off unless `listen` is set.
    public struct HTTP: Sendable, Equatable {
        public init() {}

        /// `http.listen`: where the page is served; nil = no page, no socket, no work.
        public var listen: HostPort?
        /// `http.token`: a secret every `api/*` request must carry; required unless `listen` is
        /// loopback or `allowFrom` names the only clients. Never logged, published or sent.
        public var token = ""
        /// The shortest `token` a page off loopback may have: 128 bits, as base64 (`openssl rand
        /// -base64 16` gives 24 characters), so that guessing it is out of reach.
        public static let minimumRemoteTokenLength = 22
        /// `http.allow_from`: the only client addresses served (the add-on's ingress gateway);
        /// empty = any.
        public var allowFrom: [String] = []
        /// `http.hosts`: names a request's `Host` may carry besides the listen address,
        /// `localhost`, `127.0.0.1` and `[::1]` (a reverse proxy's name); any other is refused,
        /// so a web page that points its own name at this machine (DNS rebinding) gets nothing.
        public var hosts: [String] = []
    }

    /// A TV listed in the configuration (`tvs` or `--tv`).
    public struct ConfiguredTV: Sendable, Equatable {
        public var host: String
        /// nil: find out by probing every vendor's default port.
        public var kind: TVKind?
        public var name: String?
        public var id: TVID?
        public var macs: [String] = []
        public var port: UInt16?
        /// The TV's own options from its vendor's extra keys (`Vendor.configuration`).
        public var vendorOptions = VendorSettingsBag()
        /// This TV's `wake_timeout` (seconds; 0 = not watched); nil = the bridge's.
        public var wakeTimeout: Double?
        /// `allow_cleartext`: a TV that offers no TLS may be paired and reached in clear (LG on
        /// port 3000), its key readable on the network. Never for a TV that has spoken TLS.
        public var allowCleartext = false

        public init(host: String, kind: TVKind? = nil, name: String? = nil, id: TVID? = nil, port: UInt16? = nil) {
            self.host = host
            self.kind = kind
            self.name = name
            self.id = id
            self.port = port
        }
    }

    public var mqtt = MQTT()
    public var baseTopic = "tv2mqtt"
    public var homeAssistant = HomeAssistantOptions()
    public var discovery = Discovery()
    public var wol = WakeOnLAN()
    /// Seconds between state polls of a TV.
    public var pollInterval = 10.0
    /// Seconds after an `ON` by which a TV that is still not on is reported (`turn_on_failed`,
    /// README › Events); 0 = not watched. A configured TV may have its own
    /// (`ConfiguredTV.wakeTimeout`).
    public var wakeTimeout = 20.0

    /// The `wake_timeout` for one TV: its configured entry's (matched by id, else by host), else
    /// the bridge's.
    public func wakeTimeout(for id: TVID, host: String) -> Double {
        let configured = tvs.first { $0.id == id } ?? tvs.first { $0.id == nil && $0.host == host }
        return configured?.wakeTimeout ?? wakeTimeout
    }
    /// nil: `/var/lib/tv2mqtt`, or `./tv2mqtt-state` when that is not writable.
    public var stateDir: String?
    /// Each vendor's section of the file (`Vendor.configuration`), by its settings type.
    public var vendorSettings = VendorSettingsBag()
    public var tvs: [ConfiguredTV] = []
    public var addTV = AddTV()
    public var http = HTTP()
    /// `max_tvs`: the most TVs the bridge keeps, from every source; a TV beyond it is refused
    /// (a `tv/add` with an error, a discovered one with a warning). Well above the largest
    /// fleet measured (5,000 TVs).
    public var maxTVs = 10_000
    public var logLevel = "info"
    public var logFormat = "text"
    /// How long state changes are collected before the state file is written (one write per
    /// burst). Not a configuration key: only the fault tests, which kill the bridge in the
    /// middle of writes and need many of them, shorten it (`TV2MQTT_TEST_STATE_SAVE_DELAY_MS`).
    public var stateSaveDelay = Duration.seconds(1)

    public init() {}
}
