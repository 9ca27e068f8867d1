import TVModel

/// Everything the bridge knows of one vendor, in one value: its kind's name, ports, SSDP search
/// targets, how a TV of it is probed and driven, and what it brings to messages and help. The
/// bridge, the configuration, the command line and Home Assistant's rows read the list of
/// vendors they are handed (`tv2mqtt`'s `main.swift` makes it) and never name a vendor themselves.
public struct Vendor: Sendable {
    /// Its probe and driver maker for one driver factory, from the settings every driver reads
    /// and the vendors' sections (`sections`: its own read by its settings type).
    public typealias MakeDrivers =
        @Sendable (_ settings: DriverSettings, _ sections: VendorSettingsBag) -> VendorDrivers

    public let kind: TVKind
    /// The manufacturer shown until the TV says (a configured TV that has not answered).
    public let manufacturer: String
    /// The port a TV of this vendor answers on by default; a scan probes it.
    public let defaultPort: UInt16
    /// The SSDP search targets (ST/NT) its TVs answer and announce themselves with.
    public let ssdpTargets: [String]
    /// Whether an SSDP answer's LOCATION names the port the driver talks to.
    public let ssdpLocationIsControlPort: Bool
    /// The DNS-SD service types its TVs announce (`_androidtvremote2._tcp`), browsed over mDNS.
    public let mdnsServices: [String]
    /// Whether a device of unknown kind is asked as this vendor. False for a vendor that is
    /// reached through another's probe (a bare TCP connect would claim any listening device).
    public let probedWhenKindUnknown: Bool
    /// What a configured TV that has not answered is assumed to do, so it can be switched on
    /// and controlled from the start; replaced by what it reports once it answers.
    public let placeholderCapabilities: TVCapabilities
    /// Whether its TVs must be paired (approved on the TV) before they take commands.
    public let pairs: Bool
    /// The form of the PIN its TVs may show to type back when pairing (`TVDriver.pair(pin:)`);
    /// nil for a vendor whose TVs never show one.
    public let pin: PairingPIN?
    public var pairsByPIN: Bool { pin != nil }
    /// The setting that lets its TVs wake by network, for the turn-on failure message.
    public let wakeHint: String?
    /// Its section of the configuration file and its keys in `tvs` entries, if it has any.
    public let configuration: VendorConfiguration?
    /// Every diagnostic sensor its drivers may declare (`TVCapabilities.diagnosticSensors`):
    /// Home Assistant configs remove them from TVs that lack them, and a state file written
    /// before sensors were declared gives its TVs these.
    public let diagnosticSensors: [DiagnosticSensor]
    /// Every switch and select its drivers may declare (`TVCapabilities.controls`): the parser
    /// takes their keys, Home Assistant configs remove them from TVs that lack them, and a state
    /// file written before they were declared gives them by their old flags.
    public let controls: [DeclaredControl]
    /// The key its TVs press for the `find_remote` button, where they have one: what a state
    /// file written before the key was declared (a `findRemote` flag) gives its TVs.
    public let findRemoteKey: String?
    let makeDrivers: MakeDrivers

    public init(
        kind: TVKind, manufacturer: String, defaultPort: UInt16, ssdpTargets: [String],
        ssdpLocationIsControlPort: Bool, mdnsServices: [String] = [], probedWhenKindUnknown: Bool = true,
        placeholderCapabilities: TVCapabilities, pairs: Bool = false, pin: PairingPIN? = nil, wakeHint: String? = nil,
        configuration: VendorConfiguration? = nil, diagnosticSensors: [DiagnosticSensor] = [],
        controls: [DeclaredControl] = [], findRemoteKey: String? = nil, drivers: @escaping MakeDrivers
    ) {
        self.kind = kind
        self.manufacturer = manufacturer
        self.defaultPort = defaultPort
        self.ssdpTargets = ssdpTargets
        self.ssdpLocationIsControlPort = ssdpLocationIsControlPort
        self.mdnsServices = mdnsServices
        self.probedWhenKindUnknown = probedWhenKindUnknown
        self.placeholderCapabilities = placeholderCapabilities
        self.pairs = pairs
        self.pin = pin
        self.wakeHint = wakeHint
        self.configuration = configuration
        self.diagnosticSensors = diagnosticSensors
        self.controls = controls
        self.findRemoteKey = findRemoteKey
        makeDrivers = drivers
    }
}
