import Wire

/// What a Samsung TV says about itself at `GET http://IP:8001/api/v2/` (no auth; it answers
/// in network standby too).
///
/// Read leniently: every field is optional, booleans may be `"true"` strings or real
/// booleans, and `isSupport` is a JSON document inside a JSON string that may be absent or
/// broken without making the answer useless. Only a document that is not JSON at all, or
/// has no `device` object and no `id`, is an error.
public struct SamsungDeviceInfo: Equatable, Sendable {
    /// `device.PowerState` (2019+ models): the only trustworthy power reading.
    public enum PowerState: Equatable, Sendable {
        case on
        case standby
        /// A value we do not know; kept raw for the `power_mode` sensor, never read as "on".
        case other(String)

        init(_ raw: String) {
            switch raw.lowercased() {
            case "on": self = .on
            case "standby": self = .standby
            default: self = .other(raw)
            }
        }

        /// The vendor's own spelling, for `power_mode`.
        public var rawValue: String {
            switch self {
            case .on: "on"
            case .standby: "standby"
            case .other(let raw): raw
            }
        }
    }

    /// `device.name` ("[TV] Samsung Q60 Series (55)"), else the top-level `name`.
    public var name: String?
    /// `device.modelName`: the marketing model ("QE55Q60TAUXXU").
    public var modelName: String?
    /// `device.model`: the platform code ("20_MUSEL_UHD"; its first two digits are the year).
    public var modelCode: String?
    /// `device.duid`, else `device.id`, else the top-level `id` ("uuid:…").
    public var deviceID: String?
    /// `device.wifiMac`, as the TV wrote it.
    public var wifiMAC: String?
    /// `device.PowerState`; `nil` on models before ~2019, which do not report it.
    public var powerState: PowerState?
    /// `device.FrameTVSupport` (a Frame TV: power-off needs a 3 s hold of KEY_POWER).
    public var frameTV: Bool
    /// `device.TokenAuthSupport`, else from `isSupport`: the TV wants 8002 with a token.
    public var tokenAuth: Bool?
    /// `device.OS` ("Tizen").
    public var os: String?
    /// `device.networkType`: "wireless" or "wired".
    public var networkType: String?
    /// `device.type` or the top-level `type` ("Samsung SmartTV").
    public var type: String?
    /// `device.firmwareVersion`; many TVs say "Unknown", which is dropped.
    public var firmwareVersion: String?
    /// `device.ip` as the TV sees itself (informational; we use the address we reached).
    public var ip: String?
    /// The top-level `version` of the API ("2.0.25").
    public var apiVersion: String?
    /// `isSupport` decoded from its string form, when it is a JSON object.
    public var support: [String: JSONValue]?

    public init(
        name: String? = nil, modelName: String? = nil, modelCode: String? = nil,
        deviceID: String? = nil,
        wifiMAC: String? = nil, powerState: PowerState? = nil, frameTV: Bool = false,
        tokenAuth: Bool? = nil,
        os: String? = nil, networkType: String? = nil, type: String? = nil,
        firmwareVersion: String? = nil,
        ip: String? = nil, apiVersion: String? = nil, support: [String: JSONValue]? = nil
    ) {
        self.name = name
        self.modelName = modelName
        self.modelCode = modelCode
        self.deviceID = deviceID
        self.wifiMAC = wifiMAC
        self.powerState = powerState
        self.frameTV = frameTV
        self.tokenAuth = tokenAuth
        self.os = os
        self.networkType = networkType
        self.type = type
        self.firmwareVersion = firmwareVersion
        self.ip = ip
        self.apiVersion = apiVersion
        self.support = support
    }

    /// Parses the body of `GET /api/v2/`.
    ///
    /// - Throws: `DriverError` `.badResponse` for anything that is not JSON within
    ///   `SamsungJSON.limits`, or a JSON value that is not a Samsung device description.
    public static func parse(_ body: some Collection<UInt8>) throws(DriverError) -> SamsungDeviceInfo {
        let root = try SamsungJSON.parse(body, what: "device info (/api/v2/)")
        guard case .object = root else {
            throw DriverError(
                .badResponse, "Samsung device info: expected a JSON object, got \(root.typeName)")
        }
        let device = root["device"]?.objectValue ?? [:]
        guard !device.isEmpty || root["id"] != nil else {
            throw DriverError(.badResponse, "Samsung device info: no \"device\" object and no \"id\"")
        }
        func field(_ key: String) -> String? { SamsungJSON.string(device[key]) }

        var info = SamsungDeviceInfo()
        info.name = field("name") ?? SamsungJSON.string(root["name"])
        info.modelName = field("modelName")
        info.modelCode = field("model")
        info.deviceID = field("duid") ?? field("id") ?? SamsungJSON.string(root["id"])
        info.wifiMAC = field("wifiMac")
        info.powerState = field("PowerState").map(PowerState.init)
        info.os = field("OS")
        info.networkType = field("networkType")
        info.type = field("type") ?? SamsungJSON.string(root["type"])
        info.ip = field("ip")
        info.apiVersion = SamsungJSON.string(root["version"])
        if let firmware = field("firmwareVersion"), firmware.lowercased() != "unknown" {
            info.firmwareVersion = firmware
        }
        info.support = Self.decodeSupport(root["isSupport"])
        info.frameTV =
            SamsungJSON.bool(device["FrameTVSupport"]) ?? SamsungJSON.bool(
                info.support?["FrameTVSupport"]) ?? false
        info.tokenAuth =
            SamsungJSON.bool(device["TokenAuthSupport"])
            ?? SamsungJSON.bool(info.support?["TokenAuthSupport"])
        return info
    }

    /// `isSupport` is a JSON object serialised into a string (some firmware sends the
    /// object itself). Anything unreadable is ignored: it only backs up `device` fields.
    private static func decodeSupport(_ value: JSONValue?) -> [String: JSONValue]? {
        switch value {
        case .object(let members): return members
        case .string(let text):
            return (try? JSONParser.parse(text, limits: SamsungJSON.limits))?.objectValue
        default: return nil
        }
    }
}
