import TVModel

/// What the bridge needs to know of a vendor before (or besides) a driver, kept here with the
/// drivers so the bridge core never branches on a vendor. A new vendor adds a `TVKind` case,
/// its driver, a case in each switch below and one line in `VendorDriverFactory`.
extension TVKind {
    /// The manufacturer shown until the TV says (a configured TV that has not answered, a
    /// state file that lacks it).
    public var defaultManufacturer: String {
        switch self {
        case .roku: "Roku"
        case .samsung, .samsungLegacy: "Samsung"
        }
    }

    /// What a configured TV that has not answered yet is assumed to do, so it can be switched
    /// on (Wake-on-LAN) and controlled from the start; replaced by what it reports once it answers.
    public var placeholderCapabilities: TVCapabilities {
        switch self {
        case .roku: TVCapabilities(power: true, volumeKeys: true, keyboard: true, mediaState: true)
        case .samsung: TVCapabilities(power: true, volumeKeys: true, keyboard: true, mediaState: false)
        case .samsungLegacy: SamsungLegacyDriver.capabilities
        }
    }

    /// The SSDP search target (ST/NT) a TV of this kind answers and announces itself with.
    /// Pre-2016 Samsungs answer the same target as today's: an answer means `.samsung`, whose
    /// probe falls back to the legacy protocol when the TV has no REST API on 8001.
    public var ssdpSearchTarget: String {
        switch self {
        case .roku: "roku:ecp"
        case .samsung, .samsungLegacy: "urn:samsung.com:device:RemoteControlReceiver:1"
        }
    }

    /// The ports a TV of this kind answers its probe on: where `tv/add` may look for one
    /// without a configuration that allows other ports (its ECP, REST or legacy remote port).
    public var probePorts: [UInt16] { [defaultPort] }

    /// The kind whose default port this is, if any: what a scan that found `port` open probes first.
    public init?(defaultPort port: UInt16) {
        guard let kind = Self.allCases.first(where: { $0.defaultPort == port }) else { return nil }
        self = kind
    }

    /// Whether the port of an SSDP answer's LOCATION is the port the driver talks to (Roku:
    /// ECP); Samsung's LOCATION names another service's port, so its default port is used.
    public var ssdpLocationIsControlPort: Bool {
        switch self {
        case .roku: true
        case .samsung, .samsungLegacy: false
        }
    }
}
