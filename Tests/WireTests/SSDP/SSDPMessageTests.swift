import TestSupport
import Testing

@testable import Wire

/// Turns a readable datagram with `\n` line ends into the CRLF bytes devices send.
private func crlf(_ text: String) -> [UInt8] {
    Array(text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n").utf8)
}

private func parseError(_ bytes: [UInt8]) -> WireError? {
    do {
        _ = try SSDPMessage.parse(bytes)
        return nil
    } catch {
        return error
    }
}

@Suite("SSDP message parsing", .cpuBound)
struct SSDPMessageTests {
    static let rokuResponse = """
        HTTP/1.1 200 OK
        Cache-Control: max-age=3600
        ST: roku:ecp
        USN: uuid:roku:ecp:P0A070000007
        Ext: 
        Server: Roku/9.2.0 UPnP/1.0 Roku/9.2.0
        LOCATION: http://203.0.113.134:8060/
        WAKEUP: MAC=b8:3e:59:00:00:01;Timeout=10


        """

    static let samsungResponse = """
        HTTP/1.1 200 OK
        CACHE-CONTROL: max-age = 1800
        DATE: Tue, 20 Feb 2018 10:32:30 GMT
        EXT:
        location: http://203.0.113.100:7676/rcr/RemoteControlReceiver.xml
        SERVER: SHP, UPnP/1.0, Samsung UPnP SDK/1.0
        St: urn:samsung.com:device:RemoteControlReceiver:1
        usn: uuid:2007e9e6-2ec1-f097-f2df-944770ea00a3::urn:samsung.com:device:RemoteControlReceiver:1
        Content-Length: 0
        BOOTID.UPNP.ORG: 4


        """

    @Test("a Roku search response parses with case-insensitive typed accessors")
    func rokuResponse() throws {
        let message = try SSDPMessage.parse(crlf(Self.rokuResponse))
        guard case .response(let headers) = message else {
            Issue.record("not a response: \(message)")
            return
        }
        #expect(headers.searchTarget == "roku:ecp")
        #expect(headers.usn == "uuid:roku:ecp:P0A070000007")
        #expect(headers.udn == "uuid:roku:ecp:P0A070000007")
        #expect(headers.location == "http://203.0.113.134:8060/")
        #expect(headers.locationURL == URLParts(scheme: "http", host: "203.0.113.134", port: 8060, path: "/"))
        #expect(headers.maxAge == 3600)
        #expect(headers.server == "Roku/9.2.0 UPnP/1.0 Roku/9.2.0")
        #expect(headers["ext"] == "")
        #expect(headers["wakeup"] == "MAC=b8:3e:59:00:00:01;Timeout=10")
        #expect(headers.fields.count == 7)
        let response = try SSDPResponse(headers: headers)
        #expect(response.searchTarget == "roku:ecp" && response.maxAge == 3600)
        #expect(response.extraHeaders == [SSDPHeaderField(name: "WAKEUP", value: "MAC=b8:3e:59:00:00:01;Timeout=10")])
    }

    @Test("a Samsung search response parses with mixed-case names and a spaced max-age")
    func samsungResponse() throws {
        let headers = try SSDPMessage.parse(crlf(Self.samsungResponse)).headers
        #expect(headers.searchTarget == "urn:samsung.com:device:RemoteControlReceiver:1")
        #expect(headers.server == "SHP, UPnP/1.0, Samsung UPnP SDK/1.0")
        #expect(headers.maxAge == 1800)
        #expect(headers.udn == "uuid:2007e9e6-2ec1-f097-f2df-944770ea00a3")
        #expect(headers.locationURL?.host == "203.0.113.100")
        #expect(headers.locationURL?.port == 7676)
        #expect(headers["bootid.upnp.org"] == "4")
        #expect(headers["DATE"] == "Tue, 20 Feb 2018 10:32:30 GMT")
    }

    @Test("bare LF line ends, a missing final blank line and padded values are tolerated")
    func tolerantOfRealDevices() throws {
        let bare = Array(
            "HTTP/1.1 200 OK\nST:roku:ecp\nLocation:   http://192.0.2.2:8060/ \t\nUSN: uuid:roku:ecp:X".utf8)
        let headers = try SSDPMessage.parse(bare).headers
        #expect(headers.searchTarget == "roku:ecp")
        #expect(headers.location == "http://192.0.2.2:8060/")
        #expect(headers.usn == "uuid:roku:ecp:X")
        let mixed = Array("HTTP/1.1 200 OK\r\nST: a\nUSN: b\r\n\n".utf8)
        #expect(try SSDPMessage.parse(mixed).headers.fields.count == 2)
    }

    @Test("an M-SEARCH parses into a search the simulator can match")
    func searchRequest() throws {
        let bytes = crlf(
            "M-SEARCH * HTTP/1.1\nHOST: 239.255.255.250:1900\nMAN: \"ssdp:discover\"\nMX: 3\nST: ssdp:all\n\n")
        let message = try SSDPMessage.parse(bytes)
        guard case .search(let headers) = message else {
            Issue.record("not a search: \(message)")
            return
        }
        #expect(headers.man == "ssdp:discover")
        #expect(headers.mx == 3)
        let search = try SSDPSearch(headers: headers)
        #expect(search.matches("roku:ecp"))
        #expect(search.mx == 3)
        // Roku's documented search has no MX; it is taken as 1.
        let noMX = try SSDPMessage.parse(crlf("M-SEARCH * HTTP/1.1\nMan: \"ssdp:discover\"\nST: roku:ecp\n\n"))
        let rokuSearch = try SSDPSearch(headers: noMX.headers)
        #expect(rokuSearch.mx == 1 && rokuSearch.matches("roku:ecp") && !rokuSearch.matches("other"))
    }

    @Test("an M-SEARCH without ST or with the wrong MAN is refused by SSDPSearch")
    func searchValidation() throws {
        let noST = try SSDPMessage.parse(crlf("M-SEARCH * HTTP/1.1\nMAN: \"ssdp:discover\"\n\n"))
        #expect(throws: WireError.self) { try SSDPSearch(headers: noST.headers) }
        let wrongMAN = try SSDPMessage.parse(crlf("M-SEARCH * HTTP/1.1\nMAN: \"ssdp:other\"\nST: a\n\n"))
        #expect(throws: WireError.self) { try SSDPSearch(headers: wrongMAN.headers) }
    }

    @Test("NOTIFY alive and byebye parse into advertisements")
    func notifyAliveAndByebye() throws {
        let alive = crlf(
            """
            NOTIFY * HTTP/1.1
            HOST: 239.255.255.250:1900
            CACHE-CONTROL: max-age=3600
            NT: roku:ecp
            NTS: ssdp:alive
            LOCATION: http://203.0.113.134:8060/
            USN: uuid:roku:ecp:P0A070000007


            """)
        let message = try SSDPMessage.parse(alive)
        guard case .notify(let headers) = message else {
            Issue.record("not a notify: \(message)")
            return
        }
        #expect(headers.notificationType == "roku:ecp")
        #expect(headers.notificationSubtype == .alive)
        let notify = try SSDPNotify(headers: headers)
        #expect(notify.subtype == .alive && notify.maxAge == 3600 && notify.location == "http://203.0.113.134:8060/")

        let byebye = crlf("NOTIFY * HTTP/1.1\nHOST: 239.255.255.250:1900\nNT: roku:ecp\nNTS: ssdp:byebye\nUSN: u\n\n")
        let bye = try SSDPNotify(headers: SSDPMessage.parse(byebye).headers)
        #expect(bye.subtype == .byebye && bye.location == nil)

        let update = crlf("NOTIFY * HTTP/1.1\nNT: x\nNTS: SSDP:UPDATE\nUSN: u\nLOCATION: http://1.2.3.4/\n\n")
        #expect(try SSDPMessage.parse(update).headers.notificationSubtype == .update)
    }

    @Test("a NOTIFY missing NT, USN, LOCATION (for alive) or with an unknown NTS is refused")
    func notifyValidation() throws {
        let cases: [(String, WireError.Kind)] = [
            ("NTS: ssdp:alive\nUSN: u\nLOCATION: http://1.2.3.4/", .malformed),
            ("NT: x\nUSN: u\nLOCATION: http://1.2.3.4/", .malformed),
            ("NT: x\nNTS: ssdp:alive\nLOCATION: http://1.2.3.4/", .malformed),
            ("NT: x\nNTS: ssdp:alive\nUSN: u", .malformed),
            ("NT: x\nNTS: ssdp:propchange\nUSN: u", .unsupported),
        ]
        for (fields, kind) in cases {
            let headers = try SSDPMessage.parse(crlf("NOTIFY * HTTP/1.1\n\(fields)\n\n")).headers
            #expect(throws: WireError.self) { try SSDPNotify(headers: headers) }
            do {
                _ = try SSDPNotify(headers: headers)
            } catch {
                #expect(error.kind == kind, "\(fields)")
            }
        }
    }

    @Test("a response missing ST, USN or LOCATION is refused by SSDPResponse")
    func responseValidation() throws {
        for fields in ["USN: u\nLOCATION: http://1.2.3.4/", "ST: a\nLOCATION: http://1.2.3.4/", "ST: a\nUSN: u"] {
            let headers = try SSDPMessage.parse(crlf("HTTP/1.1 200 OK\n\(fields)\n\n")).headers
            #expect(throws: WireError.self) { try SSDPResponse(headers: headers) }
        }
    }

    @Test(
        "garbage datagrams are errors, not traps",
        arguments: [
            "", "\r\n", "HTTP/1.1", "HTTP/1.1 20", "HTTP/2 200 OK\r\n\r\n", "M-SEARCH *",
            "M-SEARCH * HTTP/1.1 extra\r\n",
            "M-SEARCH /index HTTP/1.1\r\n\r\n", "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
            "HTTP/1.1 200 OK\r\n: empty\r\n",
            "HTTP/1.1 200 OK\r\nST : roku:ecp\r\n", "HTTP/1.1 200 OK\r\n folded: line\r\n",
            "HTTP/1.1 200 OK\r\nST: a\rb\r\n",
            "HTTP/1.1 200 OK\r\nST: a\u{0}\r\n", "HTTP/1.1 200 OK\r\nST: a\r\n\r\nbody text", "GET / HTTP/1.1\r\n\r\n",
            "m-search * HTTP/1.1\r\n\r\n", "\u{1}\u{2}\u{3}", "HTTP/1.1 404 Not Found\r\n\r\n",
        ])
    func garbageRefused(text: String) {
        #expect(parseError(Array(text.utf8)) != nil, "\(text.debugDescription)")
    }

    @Test("unknown methods and non-200 statuses are unsupported rather than malformed")
    func unsupportedKinds() {
        #expect(parseError(Array("SUBSCRIBE * HTTP/1.1\r\n\r\n".utf8))?.kind == .unsupported)
        #expect(parseError(Array("HTTP/1.1 404 Not Found\r\n\r\n".utf8))?.kind == .unsupported)
        #expect(parseError(Array("HTTP/1.1 2x0 OK\r\n\r\n".utf8))?.kind == .malformed)
    }

    @Test("invalid UTF-8 in a value is malformed")
    func invalidUTF8() throws {
        #expect(
            parseError(Array("HTTP/1.1 200 OK\r\nSERVER: ".utf8) + [0xC3, 0x28] + [0x0D, 0x0A])?.kind == .malformed)
        #expect(try SSDPMessage.parse(Array("HTTP/1.1 200 OK\r\nSERVER: Tëst\r\n".utf8)).headers.server == "Tëst")
    }

    @Test(
        "random binary datagrams never trap: without a start line each is refused as malformed SSDP; after a 200 status line each is a response or refused as malformed or too large"
    )
    func randomBytesNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        var outcomes: [String: Int] = [:]
        for _ in 0..<2000 {
            let count = Int.random(in: 0...200, using: &generator)
            let random = (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let withStatusLine = Bool.random(using: &generator)
            let bytes = withStatusLine ? Array("HTTP/1.1 200 OK\r\n".utf8) + random : random
            let outcome: String
            do {
                let message = try SSDPMessage.parse(bytes)
                guard case .response = message else {
                    Issue.record("parsed as something other than a response: \(message)")
                    continue
                }
                outcome = "response"
            } catch {
                #expect(error.proto == "SSDP")
                outcome = error.kind.rawValue
            }
            outcomes[(withStatusLine ? "status line, " : "random, ") + outcome, default: 0] += 1
        }
        let allowed: Set = [
            "random, malformed", "status line, response", "status line, malformed", "status line, tooLarge",
        ]
        let other = outcomes.keys.filter { !allowed.contains($0) }.sorted()
        #expect(other.isEmpty, "outcomes: \(outcomes)")
    }

    @Test("datagrams over 8 KiB and over 64 fields are tooLarge")
    func oversize() throws {
        let big = Array("HTTP/1.1 200 OK\r\nX: ".utf8) + [UInt8](repeating: 0x61, count: 8200) + [0x0D, 0x0A]
        #expect(parseError(big)?.kind == .tooLarge)
        let atLimit = Array("HTTP/1.1 200 OK\r\nX: ".utf8)
        let exactly = atLimit + [UInt8](repeating: 0x61, count: SSDPMessage.maxDatagramSize - atLimit.count)
        #expect(try SSDPMessage.parse(exactly).headers["x"]?.count == SSDPMessage.maxDatagramSize - atLimit.count)
        let fields = (0..<65).map { "X\($0): v\r\n" }.joined()
        #expect(parseError(Array("HTTP/1.1 200 OK\r\n\(fields)\r\n".utf8))?.kind == .tooLarge)
        let allowed = (0..<64).map { "X\($0): v\r\n" }.joined()
        #expect(try SSDPMessage.parse(Array("HTTP/1.1 200 OK\r\n\(allowed)\r\n".utf8)).headers.fields.count == 64)
    }

    @Test(
        "max-age is read from Cache-Control among other directives",
        arguments: [
            ("max-age=1800", 1800), ("MAX-AGE = 1800", 1800), ("no-cache=\"Ext\", max-age=900", 900),
            ("max-age=\"60\"", 60), ("public,max-age=5,private", 5), ("max-age=", nil), ("max-age=abc", nil),
            ("max-age=99999999999999999999", nil), ("no-cache", nil), ("max-age=-1", nil),
        ] as [(String, Int?)])
    func maxAgeParsing(value: String, expected: Int?) {
        #expect(SSDPHeaders([SSDPHeaderField(name: "Cache-Control", value: value)]).maxAge == expected)
    }

    @Test("repeated fields: the accessors see the first, values(for:) sees all")
    func repeatedFields() {
        let headers = SSDPHeaders([
            SSDPHeaderField(name: "ST", value: "first"), SSDPHeaderField(name: "st", value: "second"),
        ])
        #expect(headers.searchTarget == "first")
        #expect(headers.values(for: "St") == ["first", "second"])
        #expect(headers["s"] == nil && headers["stx"] == nil)
    }
}
