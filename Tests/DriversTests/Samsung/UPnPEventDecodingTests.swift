import Drivers
import TestSupport
import Testing
import Wire

/// A NOTIFY as it arrives on the wire, with `body` as its property set.
private func notifyBytes(
    body: [UInt8], nt: String? = "upnp:event", nts: String? = "upnp:propchange", sid: String? = "uuid:abc-1",
    seq: String? = "0"
) -> [UInt8] {
    var head = "NOTIFY /tv2mqtt/events/x HTTP/1.1\r\nHOST: 127.0.0.1:8058\r\nCONTENT-TYPE: text/xml\r\n"
    if let nt { head += "NT: \(nt)\r\n" }
    if let nts { head += "NTS: \(nts)\r\n" }
    if let sid { head += "SID: \(sid)\r\n" }
    if let seq { head += "SEQ: \(seq)\r\n" }
    head += "Content-Length: \(body.count)\r\n\r\n"
    return Array(head.utf8) + body
}

/// Decodes `bytes` fed one at a time, as a slow TV would send them.
private func decodeByteAtATime(_ bytes: [UInt8]) throws -> HTTPRequest? {
    var parser = HTTPRequestParser(maxHeaderBytes: GENANotify.maxHeaderBytes, maxBodyBytes: GENANotify.maxBodyBytes)
    for byte in bytes {
        parser.append([byte])
        if let request = try parser.next() { return request }
    }
    return nil
}

private func refusal(_ request: HTTPRequest) -> Int? {
    do {
        _ = try GENANotify.parse(request)
        return nil
    } catch {
        return error.status
    }
}

@Suite("UPnP events: GENA NOTIFY and RenderingControl LastChange", .cpuBound)
struct UPnPEventDecodingTests {
    @Test("async_upnp_client's NOTIFY body (whitespace around the escaped LastChange) gives volume 50, unmuted")
    func asyncUPnPClientBody() throws {
        let body = try TestFixtures.bytes("samsung/gena_notify_rendering.xml")
        let request = try #require(try decodeByteAtATime(notifyBytes(body: body, seq: "7")))
        let notify = try GENANotify.parse(request)
        #expect(notify.sid == "uuid:abc-1")
        #expect(notify.seq == 7)
        let change = try UPnPLastChange.change(in: notify)
        #expect(change == UPnPRenderingChange(volume: 50, muted: false))
    }

    @Test("a Samsung TV's LastChange (openHAB capture): volume 5, unmuted; the other variables ignored")
    func samsungCapture() throws {
        let value = String(decoding: try TestFixtures.bytes("samsung/rendering_lastchange.xml"), as: UTF8.self)
        #expect(try UPnPLastChange.parse(value) == UPnPRenderingChange(volume: 5, muted: false))
        // Carried escaped inside a property set, as the TV sends it.
        let body = Array(
            (#"<e:propertyset xmlns:e="urn:schemas-upnp-org:event-1-0"><e:property><LastChange>"#
                + XMLEscaping.escapeText(value) + "</LastChange></e:property></e:propertyset>").utf8)
        let properties = try GENANotify.properties(body)
        #expect(properties.map(\.name) == ["LastChange"])
        #expect(properties.first?.value == value)
    }

    @Test("only instance 0 and the Master channel count; bad values are skipped; volume is capped at 100")
    func lastChangeSelection() throws {
        let event =
            #"<Event><InstanceID val="1"><Volume channel="Master" val="9"/></InstanceID>"#
            + #"<InstanceID val="0"><Volume channel="LF" val="100"/><Mute channel="RF" val="1"/>"#
            + #"<Volume channel="Master" val="150"/></InstanceID></Event>"#
        #expect(try UPnPLastChange.parse(event) == UPnPRenderingChange(volume: 100, muted: nil))
        let bad =
            #"<Event><InstanceID val="0"><Volume channel="Master" val="-3"/><Mute channel="Master" val="maybe"/></InstanceID></Event>"#
        #expect(try UPnPLastChange.parse(bad).isEmpty)
        let noChannel = #"<Event><InstanceID val="0"><Mute val="true"/></InstanceID></Event>"#
        #expect(try UPnPLastChange.parse(noChannel) == UPnPRenderingChange(muted: true))
    }

    @Test("a LastChange that is not XML or has no <Event> root is refused")
    func malformedLastChange() {
        for value in ["", "<Event>", "volume=5", "<Other/>", "<Event><InstanceID val=\"0\"></Event>"] {
            #expect(throws: DriverError.self, "\(value)") { try UPnPLastChange.parse(value) }
        }
        let huge = "<Event>" + String(repeating: "<X/>", count: 20_000) + "</Event>"
        #expect(throws: DriverError.self) { try UPnPLastChange.parse(huge) }
    }

    @Test("header checks: 400 for missing NT/NTS/SEQ, 412 for a wrong NT/NTS or a missing SID")
    func headerChecks() throws {
        let body = Array(#"<e:propertyset xmlns:e="urn:schemas-upnp-org:event-1-0"/>"#.utf8)
        let cases: [(bytes: [UInt8], status: Int?)] = [
            (notifyBytes(body: body), nil),
            (notifyBytes(body: body, nt: nil), 400),
            (notifyBytes(body: body, nts: nil), 400),
            (notifyBytes(body: body, seq: nil), 400),
            (notifyBytes(body: body, seq: "x1"), 400),
            (notifyBytes(body: body, seq: "4294967296"), 400),
            (notifyBytes(body: body, nt: "ssdp:alive"), 412),
            (notifyBytes(body: body, nts: "upnp:other"), 412),
            (notifyBytes(body: body, sid: nil), 412),
            (notifyBytes(body: body, sid: ""), 412),
        ]
        for (bytes, status) in cases {
            let request = try #require(try decodeByteAtATime(bytes))
            #expect(refusal(request) == status, "\(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
        var subscribe = try #require(try decodeByteAtATime(notifyBytes(body: body)))
        subscribe.method = "SUBSCRIBE"
        #expect(refusal(subscribe) == 400)
    }

    @Test("bodies: truncated, oversized or not a property set are 400; every truncation is refused")
    func bodies() throws {
        let body = try TestFixtures.bytes("samsung/gena_notify_rendering.xml")
        let trimmed = Array(
            body.drop { $0 == 0x0A || $0 == 0x20 }.reversed().drop { $0 == 0x0A || $0 == 0x20 }.reversed())
        for cut in stride(from: 0, to: trimmed.count - 1, by: 7) {
            #expect(throws: GENANotifyRefusal.self, "cut at \(cut)") { try GENANotify.properties(trimmed.prefix(cut)) }
        }
        let oversized =
            Array("<e:propertyset>".utf8) + [UInt8](repeating: 0x20, count: GENANotify.maxBodyBytes)
            + Array("</e:propertyset>".utf8)
        var oversizedStatus: Int?
        do { _ = try GENANotify.properties(oversized) } catch { oversizedStatus = error.status }
        #expect(oversizedStatus == 400)
        #expect(throws: GENANotifyRefusal.self) { try GENANotify.properties(Array("<root/>".utf8)) }
        #expect(throws: GENANotifyRefusal.self) {
            try GENANotify.properties(Array("<e:propertyset><other/></e:propertyset>".utf8))
        }
        // The listener's parser refuses an oversized body before buffering it.
        var parser = HTTPRequestParser(maxHeaderBytes: GENANotify.maxHeaderBytes, maxBodyBytes: GENANotify.maxBodyBytes)
        parser.append(notifyBytes(body: oversized))
        #expect(throws: WireError.self) { try parser.next() }
        var headers = HTTPRequestParser(
            maxHeaderBytes: GENANotify.maxHeaderBytes, maxBodyBytes: GENANotify.maxBodyBytes)
        headers.append(Array("NOTIFY / HTTP/1.1\r\nX: \(String(repeating: "a", count: 9000))\r\n".utf8))
        #expect(throws: WireError.self) { try headers.next() }
    }

    @Test("SUBSCRIBE headers and answers: CALLBACK, NT, TIMEOUT; renewals carry only SID and TIMEOUT")
    func subscribeHeaders() throws {
        let first = GENA.subscribeHeaders(callback: "http://192.0.2.2:8058/p", timeoutSeconds: 1800)
        #expect(first["CALLBACK"] == "<http://192.0.2.2:8058/p>")
        #expect(first["NT"] == "upnp:event")
        #expect(first["TIMEOUT"] == "Second-1800")
        let renewal = GENA.renewHeaders(sid: "uuid:1", timeoutSeconds: 300)
        #expect(renewal.map(\.name) == ["SID", "TIMEOUT"])
        #expect(GENA.parseTimeout("Second-300") == 300)
        #expect(GENA.parseTimeout(" second-5 ") == 5)
        #expect(GENA.parseTimeout("infinite") == nil)
        #expect(GENA.parseTimeout("Second-") == nil)
        #expect(GENA.parseTimeout("Second-0:30:00") == nil)
        #expect(GENA.parseTimeout("Second-99999999999") == nil)
        let answer = try GENASubscribeAnswer(headers: HTTPHeaders([("SID", "uuid:x"), ("TIMEOUT", "Second-540")]))
        #expect(answer == GENASubscribeAnswer(sid: "uuid:x", timeoutSeconds: 540))
        #expect(throws: WireError.self) { try GENASubscribeAnswer(headers: HTTPHeaders([("TIMEOUT", "Second-5")])) }
        #expect(throws: WireError.self) {
            try GENASubscribeAnswer(headers: HTTPHeaders([("SID", "uuid:a"), ("SID", "uuid:b")]))
        }
        #expect(throws: WireError.self) { try GENASubscribeAnswer(headers: HTTPHeaders([("SID", "uuid: a b")])) }
    }

    @Test("the description's eventSubURL, made a path; absent gives nil")
    func eventPath() throws {
        let dmr =
            #"<root><device><serviceList><service><serviceType>urn:schemas-upnp-org:service:RenderingControl:1</serviceType><controlURL>/upnp/control/RenderingControl1</controlURL><eventSubURL>upnp/event/RC</eventSubURL></service></serviceList></device></root>"#
        #expect(try UPnPDeviceDescription.renderingControlEventPath(Array(dmr.utf8)) == "/upnp/event/RC")
        let absolute = dmr.split(separator: "upnp/event/RC").joined(separator: "http://evil.example/e?x=1")
        #expect(try UPnPDeviceDescription.renderingControlEventPath(Array(absolute.utf8)) == "/e?x=1")
        #expect(try UPnPDeviceDescription.renderingControlEventPath(Array("<root/>".utf8)) == nil)
    }
}
