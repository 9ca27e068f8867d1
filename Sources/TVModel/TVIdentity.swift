/// What a TV is: the facts that identify it and describe it in Home Assistant.
/// Learned from the TV (device-info, REST) and kept in the state directory.
public struct TVIdentity: Equatable, Sendable, Codable {
    public var id: TVID
    public var kind: TVKind
    /// The user-visible name ("Living Room TV"); configuration or `tv/rename` may override it.
    public var name: String
    public var manufacturer: String
    /// Marketing model name ("6Series-50", "UE43BU8070UXZT").
    public var model: String?
    /// Model number or code ("G218X", "22_KANTSU2E_UB2").
    public var modelID: String?
    public var serialNumber: String?
    public var softwareVersion: String?
    /// The last address the TV answered on.
    public var host: String
    /// The port the TV's driver first talks to (its vendor's default unless configured).
    public var port: UInt16
    /// Every known MAC (Wi-Fi and Ethernet), lowercase and colon-separated, for Wake-on-LAN.
    public var macs: [String]

    public init(
        id: TVID, kind: TVKind, name: String, manufacturer: String, model: String? = nil, modelID: String? = nil,
        serialNumber: String? = nil, softwareVersion: String? = nil, host: String, port: UInt16,
        macs: [String] = []
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.manufacturer = manufacturer
        self.model = model
        self.modelID = modelID
        self.serialNumber = serialNumber
        self.softwareVersion = softwareVersion
        self.host = host
        self.port = port
        self.macs = macs
    }
}
