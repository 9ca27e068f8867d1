import Wire

/// A UPnP RenderingControl:1 action on a Samsung TV's media renderer (port 9197): volume and
/// mute, the way Home Assistant drives them (InstanceID 0, Channel Master).
public enum UPnPRenderingAction: Equatable, Sendable {
    case getVolume
    /// 0…100; values outside are clamped (the command router has already refused them).
    case setVolume(Int)
    case getMute
    case setMute(Bool)

    /// The SOAP action name.
    public var name: String {
        switch self {
        case .getVolume: "GetVolume"
        case .setVolume: "SetVolume"
        case .getMute: "GetMute"
        case .setMute: "SetMute"
        }
    }
}

/// An HTTP POST to make: the SOAP request for one `UPnPRenderingAction`.
public struct UPnPSOAPRequest: Equatable, Sendable {
    /// The control URL's path, e.g. `/upnp/control/RenderingControl1`.
    public var path: String
    /// Header name/value pairs besides Host and Content-Length, in order.
    public var headers: [(String, String)]
    public var body: [UInt8]

    public static func == (lhs: UPnPSOAPRequest, rhs: UPnPSOAPRequest) -> Bool {
        lhs.path == rhs.path && lhs.body == rhs.body
            && lhs.headers.elementsEqual(rhs.headers, by: { $0 == $1 })
    }
}

/// Builds RenderingControl SOAP requests.
public enum UPnPRenderingControl {
    public static let serviceType = "urn:schemas-upnp-org:service:RenderingControl:1"
    /// The control URL of Samsung's DMR when its description is not read.
    public static let defaultControlPath = "/upnp/control/RenderingControl1"
    public static let defaultPort: UInt16 = 9197

    /// The request for `action` at `controlPath`.
    public static func request(
        _ action: UPnPRenderingAction, controlPath: String = defaultControlPath
    )
        -> UPnPSOAPRequest
    {
        var arguments = [("InstanceID", "0"), ("Channel", "Master")]
        switch action {
        case .setVolume(let level): arguments.append(("DesiredVolume", String(min(max(level, 0), 100))))
        case .setMute(let muted): arguments.append(("DesiredMute", muted ? "1" : "0"))
        case .getVolume, .getMute: break
        }
        let argumentXML = arguments.map { "<\($0.0)>\(XMLEscaping.escapeText($0.1))</\($0.0)>" }
            .joined()
        let body =
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
            + "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\" "
            + "s:encodingStyle=\"http://schemas.xmlsoap.org/soap/encoding/\"><s:Body>"
            + "<u:\(action.name) xmlns:u=\"\(serviceType)\">\(argumentXML)</u:\(action.name)>"
            + "</s:Body></s:Envelope>"
        return UPnPSOAPRequest(
            path: controlPath,
            headers: [
                ("Content-Type", "text/xml; charset=\"utf-8\""),
                ("SOAPACTION", soapAction(action)),
            ],
            body: Array(body.utf8))
    }

    /// The `SOAPACTION` header value: the quoted `service#action`.
    public static func soapAction(_ action: UPnPRenderingAction) -> String {
        "\"\(serviceType)#\(action.name)\""
    }
}
