import TestSupport
import Testing

@testable import Wire

@Suite("SSDP message encoding", .cpuBound)
struct SSDPEncodingTests {
    @Test("an M-SEARCH has the exact lines, CRLF ends and a closing blank line")
    func searchGolden() {
        let search = SSDPSearch(searchTarget: "roku:ecp", mx: 2)
        let expected =
            "M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: \"ssdp:discover\"\r\nMX: 2\r\nST: roku:ecp\r\n\r\n"
        #expect(search.encode() == Array(expected.utf8))
    }

    @Test("MX is clamped to 1…5", arguments: [(-3, 1), (0, 1), (1, 1), (5, 5), (6, 5), (120, 5)])
    func mxClamped(given: Int, expected: Int) {
        #expect(SSDPSearch(searchTarget: "x", mx: given).mx == expected)
    }

    @Test("a search round-trips through the parser")
    func searchRoundTrip() throws {
        let search = SSDPSearch(
            searchTarget: "urn:samsung.com:device:RemoteControlReceiver:1", mx: 4, host: "192.0.2.9:1900")
        let message = try SSDPMessage.parse(search.encode())
        guard case .search(let headers) = message else {
            Issue.record("not a search")
            return
        }
        #expect(try SSDPSearch(headers: headers) == search)
    }

    @Test("a Roku-style response encodes what a Roku sends and round-trips")
    func rokuResponseGolden() throws {
        let response = SSDPResponse(
            searchTarget: "roku:ecp", location: "http://203.0.113.134:8060/", usn: "uuid:roku:ecp:P0A070000007",
            server: nil, maxAge: 3600)
        let expected =
            "HTTP/1.1 200 OK\r\nCache-Control: max-age=3600\r\nST: roku:ecp\r\nUSN: uuid:roku:ecp:P0A070000007\r\n"
            + "Ext: \r\nLocation: http://203.0.113.134:8060/\r\n\r\n"
        #expect(response.encode() == Array(expected.utf8))
        let message = try SSDPMessage.parse(response.encode())
        guard case .response(let headers) = message else {
            Issue.record("not a response")
            return
        }
        #expect(try SSDPResponse(headers: headers) == response)
    }

    @Test("a Samsung-style response with SERVER and extra fields round-trips")
    func samsungResponseRoundTrip() throws {
        let response = SSDPResponse(
            searchTarget: "urn:samsung.com:device:RemoteControlReceiver:1",
            location: "http://203.0.113.100:7676/rcr/RemoteControlReceiver.xml",
            usn: "uuid:2007e9e6-2ec1-f097-f2df-944770ea00a3::urn:samsung.com:device:RemoteControlReceiver:1",
            server: "SHP, UPnP/1.0, Samsung UPnP SDK/1.0", maxAge: 1800,
            extraHeaders: [SSDPHeaderField(name: "BOOTID.UPNP.ORG", value: "4")])
        #expect(try SSDPResponse(headers: SSDPMessage.parse(response.encode()).headers) == response)
    }

    @Test("NOTIFY alive and byebye encode and round-trip")
    func notifyRoundTrip() throws {
        let alive = SSDPNotify(
            notificationType: "roku:ecp", subtype: .alive, usn: "uuid:roku:ecp:P0A070000007",
            location: "http://203.0.113.134:8060/", server: "Roku/9.2.0 UPnP/1.0", maxAge: 3600)
        let text = String(decoding: alive.encode(), as: UTF8.self)
        #expect(text.hasPrefix("NOTIFY * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\n"))
        #expect(text.contains("\r\nNTS: ssdp:alive\r\n") && text.hasSuffix("\r\n\r\n"))
        #expect(try SSDPNotify(headers: SSDPMessage.parse(alive.encode()).headers) == alive)

        let byebye = SSDPNotify(notificationType: "roku:ecp", subtype: .byebye, usn: "uuid:roku:ecp:P0A070000007")
        #expect(!String(decoding: byebye.encode(), as: UTF8.self).contains("LOCATION"))
        #expect(try SSDPNotify(headers: SSDPMessage.parse(byebye.encode()).headers) == byebye)
    }

    @Test("CR and LF in a value cannot inject a header field")
    func noHeaderInjection() throws {
        let search = SSDPSearch(searchTarget: "roku:ecp\r\nEVIL: 1")
        let headers = try SSDPMessage.parse(search.encode()).headers
        #expect(headers["evil"] == nil)
        #expect(headers.searchTarget == "roku:ecpEVIL: 1")
    }
}
