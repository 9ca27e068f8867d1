import Wire

/// The documents a simulated Samsung serves: REST JSON, the UPnP device description and SOAP
/// answers. Shapes follow captures of 2020 Tizen TVs (reference §C).
enum SamsungDocuments {
    /// `GET /api/v2/`: answered on and in standby, `PowerState` says which. Every `device`
    /// value is a string, as on real TVs; `isSupport` is JSON inside a JSON string.
    static func device(
        _ identity: SamsungIdentity, host: String, portWS: UInt16, power: SamsungSimState.Power,
        frame: Bool
    ) -> JSONValue {
        let flag: (Bool) -> JSONValue = { .string($0 ? "true" : "false") }
        let support: JSONValue = [
            "DMP_DRM_PLAYREADY": "false", "DMP_DRM_WIDEVINE": "false", "DMP_available": "true",
            "EDEN_available": "true", "FrameTVSupport": flag(frame), "ImeSyncedSupport": "true",
            "TokenAuthSupport": "true", "remote_available": "true", "remote_fourDirections": "true",
            "remote_touchPad": "true", "remote_voiceControl": "true",
        ]
        let device: JSONValue = .object([
            "FrameTVSupport": flag(frame), "GamePadSupport": "true", "ImeSyncedSupport": "true",
            "Language": "en_GB", "OS": "Tizen", "PowerState": .string(power == .on ? "on" : "standby"),
            "TokenAuthSupport": "true", "VoiceSupport": "true", "WallScreenRatio": "0",
            "WallService": "false", "countryCode": "GB", "description": "Samsung DTV RCR",
            "developerIP": "0.0.0.0", "developerMode": "0", "duid": .string(identity.duid),
            "firmwareVersion": "T-MSLUDEUC-1400.5", "id": .string(identity.duid), "ip": .string(host),
            "model": .string(identity.modelCode), "modelName": .string(identity.modelName),
            "name": .string(identity.name), "networkType": "wireless", "resolution": "3840x2160",
            "smartHubAgreement": "true", "ssid": "00:00:00:00:00:00", "type": "Samsung SmartTV",
            "udn": .string(identity.duid), "wifiMac": .string(identity.wifiMAC),
        ])
        return .object([
            "device": device, "id": .string(identity.duid),
            "isSupport": .string(support.serialized()), "name": .string(identity.name),
            "remote": "1.0", "type": "Samsung SmartTV",
            "uri": .string("http://\(hostForURL(host)):\(portWS)/api/v2/"), "version": "2.0.25",
        ])
    }

    /// `GET /api/v2/applications/<id>`.
    static func application(_ app: SamsungCatalog.App, running: Bool) -> JSONValue {
        [
            "id": .string(app.id), "name": .string(app.name), "running": .bool(running),
            "version": .string(app.version), "visible": .bool(running),
        ]
    }

    /// `GET /dmr`: a MediaRenderer with RenderingControl (and the usual ConnectionManager).
    static func dmr(_ identity: SamsungIdentity) -> String {
        let name = XMLEscaping.escapeText(identity.name)
        let model = XMLEscaping.escapeText(identity.modelName)
        return """
            <?xml version="1.0"?>
            <root xmlns="urn:schemas-upnp-org:device-1-0" xmlns:sec="http://www.sec.co.kr/dlna" xmlns:dlna="urn:schemas-dlna-org:device-1-0">
             <specVersion><major>1</major><minor>0</minor></specVersion>
             <device>
              <deviceType>urn:schemas-upnp-org:device:MediaRenderer:1</deviceType>
              <friendlyName>\(name)</friendlyName>
              <manufacturer>Samsung Electronics</manufacturer>
              <manufacturerURL>http://www.samsung.com/sec</manufacturerURL>
              <modelDescription>Samsung TV DMR</modelDescription>
              <modelName>\(model)</modelName>
              <modelNumber>AllShare1.0</modelNumber>
              <UDN>\(XMLEscaping.escapeText(identity.duid))</UDN>
              <sec:deviceID></sec:deviceID>
              <serviceList>
               <service>
                <serviceType>urn:schemas-upnp-org:service:RenderingControl:1</serviceType>
                <serviceId>urn:upnp-org:serviceId:RenderingControl</serviceId>
                <controlURL>/upnp/control/RenderingControl1</controlURL>
                <eventSubURL>/upnp/event/RenderingControl1</eventSubURL>
                <SCPDURL>RenderingControl_1.xml</SCPDURL>
               </service>
               <service>
                <serviceType>urn:schemas-upnp-org:service:ConnectionManager:1</serviceType>
                <serviceId>urn:upnp-org:serviceId:ConnectionManager</serviceId>
                <controlURL>/upnp/control/ConnectionManager1</controlURL>
                <eventSubURL>/upnp/event/ConnectionManager1</eventSubURL>
                <SCPDURL>ConnectionManager_1.xml</SCPDURL>
               </service>
              </serviceList>
             </device>
            </root>
            """
    }

    static let renderingControl = "urn:schemas-upnp-org:service:RenderingControl:1"

    /// A SOAP action response with `arguments` (name, value), in order.
    static func soapResponse(_ action: String, _ arguments: [(String, String)]) -> String {
        let body = arguments.map { "<\($0.0)>\(XMLEscaping.escapeText($0.1))</\($0.0)>" }.joined()
        return envelope(
            "<u:\(action)Response xmlns:u=\"\(renderingControl)\">\(body)</u:\(action)Response>")
    }

    /// A UPnP fault (sent with HTTP 500): 401 Invalid Action, 402 Invalid Args, 501 Action Failed.
    static func soapFault(_ code: Int, _ description: String) -> String {
        envelope(
            "<s:Fault><faultcode>s:Client</faultcode><faultstring>UPnPError</faultstring><detail>"
                + "<UPnPError xmlns=\"urn:schemas-upnp-org:control-1-0\"><errorCode>\(code)</errorCode>"
                + "<errorDescription>\(XMLEscaping.escapeText(description))</errorDescription>"
                + "</UPnPError></detail></s:Fault>")
    }

    private static func envelope(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
            + "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\" "
            + "s:encodingStyle=\"http://schemas.xmlsoap.org/soap/encoding/\"><s:Body>\(body)</s:Body>"
            + "</s:Envelope>"
    }

    static func hostForURL(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }
}
