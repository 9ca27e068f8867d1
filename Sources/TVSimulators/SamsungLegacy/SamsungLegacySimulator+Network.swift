import Net
import Wire

/// The SSDP responder (RemoteControlReceiver:1, as C–F series TVs answer) and, for an encrypted
/// H/J model, its `/ms/1.0/` device information; the arrangement is the Samsung simulator's.
extension SamsungLegacySimulator {
    static let searchTarget = "urn:samsung.com:device:RemoteControlReceiver:1"
    static let serverHeader = "SHP, UPnP/1.0, Samsung UPnP SDK/1.0"

    var ssdpAdvert: SimSSDPAdvert {
        SimSSDPAdvert(
            host: options.host, searchTarget: Self.searchTarget, usn: "\(udn)::\(Self.searchTarget)",
            location: "http://\(options.host):7676/smp_4_", server: Self.serverHeader, maxAge: 1800,
            answerWindow: options.ssdpAnswerWindow)
    }

    func startSSDP() throws {
        // A legacy TV in standby has no network: silent.
        try common.startSSDP(on: options.ssdpPort, ssdpAdvert) { [weak self] in
            guard let self else { return true }
            return !core.withLock { $0.on } || common.isStopped
        }
    }

    /// `GET /ms/1.0/` as a 2015 J series answers it (the fields samsungctl and Homey read);
    /// everything else 404, like `/api/v2/` on those models.
    func startEncryptedREST() throws {
        let name = self.name
        let udn = self.udn
        let server = try SimHTTPServer.start(
            host: options.host, port: options.restPort, serverHeader: Self.serverHeader
        ) { request, _ in
            guard request.method == "GET", request.target == "/ms/1.0/" else {
                return SimHTTPReply(HTTPResponse(status: 404, body: Array("Not Found".utf8)))
            }
            let info: JSONValue = [
                "DeviceID": .string(String(udn.dropFirst("uuid:".count))),
                "DeviceName": .string(name), "ModelName": "UE40J6200", "Type": "Samsung SmartTV",
            ]
            var response = HTTPResponse(status: 200, body: info.serializedBytes())
            response.headers.set(name: "Content-Type", value: "application/json")
            return SimHTTPReply(response)
        }
        common.keep(server, as: Service.rest)
    }

    /// A magic packet for `wakeMAC` switches the TV on (its remote port listens again).
    func startWakeOnLAN() throws {
        let mac = options.wakeMAC.lowercased()
        try common.startWakeOnLAN(on: options.wolPort, macs: [mac]) { [self] _, from in
            record("wol", ["mac": .string(mac), "from": .string(from.ip)])
            try? powerOn()
        }
    }
}
