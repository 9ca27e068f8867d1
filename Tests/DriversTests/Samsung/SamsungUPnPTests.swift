import Drivers
import TestSupport
import Testing

private func envelope(_ body: String) -> [UInt8] {
    utf8(
        #"<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body>"#
            + body + "</s:Body></s:Envelope>")
}

@Suite("Samsung UPnP RenderingControl", .cpuBound)
struct SamsungUPnPTests {
    @Test("GetVolume request, byte for byte")
    func getVolume() {
        let request = UPnPRenderingControl.request(.getVolume)
        #expect(request.path == "/upnp/control/RenderingControl1")
        #expect(request.headers.map(\.0) == ["Content-Type", "SOAPACTION"])
        #expect(request.headers[0].1 == "text/xml; charset=\"utf-8\"")
        #expect(request.headers[1].1 == "\"urn:schemas-upnp-org:service:RenderingControl:1#GetVolume\"")
        #expect(
            String(decoding: request.body, as: UTF8.self)
                == "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
                + #"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body><u:GetVolume xmlns:u="urn:schemas-upnp-org:service:RenderingControl:1"><InstanceID>0</InstanceID><Channel>Master</Channel></u:GetVolume></s:Body></s:Envelope>"#
        )
    }

    @Test("Set requests carry the desired value; volume is clamped; a custom control path is used")
    func setRequests() {
        let volume = String(decoding: UPnPRenderingControl.request(.setVolume(25)).body, as: UTF8.self)
        #expect(
            volume.contains(
                "<u:SetVolume xmlns:u=\"urn:schemas-upnp-org:service:RenderingControl:1\"><InstanceID>0</InstanceID><Channel>Master</Channel><DesiredVolume>25</DesiredVolume></u:SetVolume>"
            ))
        #expect(
            String(decoding: UPnPRenderingControl.request(.setVolume(250)).body, as: UTF8.self).contains(
                "<DesiredVolume>100</DesiredVolume>"))
        #expect(
            String(decoding: UPnPRenderingControl.request(.setVolume(-3)).body, as: UTF8.self).contains(
                "<DesiredVolume>0</DesiredVolume>"))
        let mute = UPnPRenderingControl.request(.setMute(true), controlPath: "/rc")
        #expect(mute.path == "/rc")
        #expect(
            String(decoding: mute.body, as: UTF8.self).contains(
                "<Channel>Master</Channel><DesiredMute>1</DesiredMute></u:SetMute>"))
        #expect(
            String(decoding: UPnPRenderingControl.request(.setMute(false)).body, as: UTF8.self).contains(
                "<DesiredMute>0</DesiredMute>"))
        #expect(
            UPnPRenderingControl.soapAction(.getMute)
                == "\"urn:schemas-upnp-org:service:RenderingControl:1#GetMute\"")
        #expect(
            UPnPRenderingControl.soapAction(.setMute(true))
                == "\"urn:schemas-upnp-org:service:RenderingControl:1#SetMute\"")
    }

    @Test("responses: CurrentVolume, CurrentMute as 0/1/true/false, Set acknowledgements")
    func responses() throws {
        let ns = "xmlns:u=\"urn:schemas-upnp-org:service:RenderingControl:1\""
        #expect(
            try UPnPRenderingControl.parseResponse(
                envelope(
                    "<u:GetVolumeResponse \(ns)><CurrentVolume>18</CurrentVolume></u:GetVolumeResponse>"),
                for: .getVolume) == .volume(18))
        #expect(
            try UPnPRenderingControl.parseResponse(
                envelope(
                    "<u:GetVolumeResponse \(ns)><CurrentVolume> 100\n</CurrentVolume></u:GetVolumeResponse>"),
                for: .getVolume) == .volume(100))
        for (text, muted) in [("1", true), ("0", false), ("true", true), ("False", false)] {
            #expect(
                try UPnPRenderingControl.parseResponse(
                    envelope(
                        "<u:GetMuteResponse \(ns)><CurrentMute>\(text)</CurrentMute></u:GetMuteResponse>"),
                    for: .getMute) == .mute(muted))
        }
        #expect(
            try UPnPRenderingControl.parseResponse(
                envelope("<u:SetVolumeResponse \(ns)/>"), for: .setVolume(3)) == .done)
        #expect(
            try UPnPRenderingControl.parseResponse(
                envelope("<u:SetMuteResponse \(ns)></u:SetMuteResponse>"), for: .setMute(true)) == .done)
    }

    @Test("a SOAP fault becomes a clear error naming errorCode and errorDescription")
    func fault() {
        let body = envelope(
            #"<s:Fault><faultcode>s:Client</faultcode><faultstring>UPnPError</faultstring><detail><UPnPError xmlns="urn:schemas-upnp-org:control-1-0"><errorCode>402</errorCode><errorDescription>Invalid Args</errorDescription></UPnPError></detail></s:Fault>"#
        )
        #expect {
            try UPnPRenderingControl.parseResponse(body, for: .setVolume(50))
        } throws: { error in
            let error = error as? DriverError
            return error?.kind == .rejected
                && error?.message == "UPnP SetVolume failed: error 402 (Invalid Args)"
        }
        let bare = envelope(
            "<s:Fault><faultcode>s:Server</faultcode><faultstring>Action Failed</faultstring></s:Fault>")
        #expect {
            try UPnPRenderingControl.parseResponse(bare, for: .getVolume)
        } throws: { error in
            (error as? DriverError)?.message == "UPnP GetVolume failed (Action Failed)"
        }
    }

    @Test(
        "wrong or broken answers are badResponse errors",
        arguments: [
            ("", UPnPRenderingAction.getVolume), ("<a>", .getVolume), ("not xml", .getMute),
            (
                "<s:Envelope xmlns:s=\"x\"><s:Body><u:GetMuteResponse xmlns:u=\"y\"><CurrentMute>1</CurrentMute></u:GetMuteResponse></s:Body></s:Envelope>",
                .getVolume
            ),
            (
                "<r><u:GetVolumeResponse xmlns:u=\"y\"><CurrentVolume>loud</CurrentVolume></u:GetVolumeResponse></r>",
                .getVolume
            ),
            (
                "<r><u:GetVolumeResponse xmlns:u=\"y\"><CurrentVolume>-1</CurrentVolume></u:GetVolumeResponse></r>",
                .getVolume
            ),
            (
                "<r><u:GetMuteResponse xmlns:u=\"y\"><CurrentMute>maybe</CurrentMute></u:GetMuteResponse></r>",
                .getMute
            ),
            ("<r><u:GetMuteResponse xmlns:u=\"y\"/></r>", .getMute),
        ])
    func broken(text: String, action: UPnPRenderingAction) {
        #expect {
            try UPnPRenderingControl.parseResponse(utf8(text), for: action)
        } throws: { error in
            (error as? DriverError)?.kind == .badResponse
        }
    }

    @Test("oversized and deeply nested answers are refused")
    func limits() {
        let big = "<r>" + String(repeating: "a", count: 70 * 1024) + "</r>"
        #expect(throws: DriverError.self) {
            try UPnPRenderingControl.parseResponse(utf8(big), for: .getVolume)
        }
        let deep = String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
        #expect(throws: DriverError.self) {
            try UPnPRenderingControl.parseResponse(utf8(deep), for: .getVolume)
        }
    }

    @Test("the RenderingControl control URL from a device description")
    func description() throws {
        let dmr = #"""
            <?xml version="1.0"?>
            <root xmlns="urn:schemas-upnp-org:device-1-0"><specVersion><major>1</major><minor>0</minor></specVersion>
            <device><deviceType>urn:schemas-upnp-org:device:MediaRenderer:1</deviceType><friendlyName>TV</friendlyName>
            <serviceList>
            <service><serviceType>urn:schemas-upnp-org:service:ConnectionManager:1</serviceType><controlURL>/upnp/control/ConnectionManager1</controlURL></service>
            <service><serviceType>urn:schemas-upnp-org:service:RenderingControl:1</serviceType><serviceId>urn:upnp-org:serviceId:RenderingControl</serviceId>
            <controlURL> /upnp/control/RenderingControl1 </controlURL><eventSubURL>/upnp/event/RenderingControl1</eventSubURL></service>
            </serviceList></device></root>
            """#
        #expect(
            try UPnPDeviceDescription.renderingControlPath(utf8(dmr)) == "/upnp/control/RenderingControl1"
        )
        let relative = dmr.replacingOccurrences(" /upnp/control/RenderingControl1 ", "upnp/control/RC")
        #expect(try UPnPDeviceDescription.renderingControlPath(utf8(relative)) == "/upnp/control/RC")
        let absolute = dmr.replacingOccurrences(
            " /upnp/control/RenderingControl1 ", "http://198.51.100.9:1234/evil/rc?x=1")
        #expect(
            try UPnPDeviceDescription.renderingControlPath(utf8(absolute)) == "/evil/rc?x=1",
            "only the path is kept")
        let embedded =
            "<root><device><deviceList><device><serviceList><service><serviceType>urn:schemas-upnp-org:service:RenderingControl:1</serviceType><controlURL>/rc</controlURL></service></serviceList></device></deviceList></device></root>"
        #expect(try UPnPDeviceDescription.renderingControlPath(utf8(embedded)) == "/rc")
        let none = dmr.replacingOccurrences("RenderingControl:1", "AVTransport:1")
        #expect(try UPnPDeviceDescription.renderingControlPath(utf8(none)) == nil)
        #expect(throws: DriverError.self) {
            try UPnPDeviceDescription.renderingControlPath(utf8("<root>"))
        }
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        replacing(target, with: replacement)
    }
}
