import TestSupport
import Testing

@testable import Wire

private func urlError(_ text: String) -> WireError? {
    do {
        _ = try URLParts(parsing: text)
        return nil
    } catch {
        return error
    }
}

@Suite("URL parts", .cpuBound)
struct URLPartsTests {
    @Test(
        "absolute URLs of every supported scheme parse into their parts",
        arguments: [
            ("http://203.0.113.134:8060/", URLParts(scheme: "http", host: "203.0.113.134", port: 8060, path: "/")),
            ("HTTP://Roku.Local", URLParts(scheme: "http", host: "roku.local", port: nil, path: "/")),
            (
                "https://tv.example.com/api/v2/?x=1",
                URLParts(scheme: "https", host: "tv.example.com", path: "/api/v2/", query: "x=1")
            ),
            (
                "ws://192.0.2.5:8060/ecp-session",
                URLParts(scheme: "ws", host: "192.0.2.5", port: 8060, path: "/ecp-session")
            ),
            (
                "wss://192.0.2.7:8002/api/v2/channels/samsung.remote.control?name=dHYybXF0dA==&token=123",
                URLParts(
                    scheme: "wss", host: "192.0.2.7", port: 8002, path: "/api/v2/channels/samsung.remote.control",
                    query: "name=dHYybXF0dA==&token=123")
            ),
            ("mqtt://broker:1883", URLParts(scheme: "mqtt", host: "broker", port: 1883, path: "/")),
            ("mqtts://broker.lan", URLParts(scheme: "mqtts", host: "broker.lan", path: "/")),
            ("http://[::1]:8080/x", URLParts(scheme: "http", host: "::1", port: 8080, path: "/x")),
            ("http://[FE80::A:B]/", URLParts(scheme: "http", host: "fe80::a:b", path: "/")),
            ("http://[::ffff:203.0.113.1]/", URLParts(scheme: "http", host: "::ffff:203.0.113.1", path: "/")),
            ("http://[1:2:3:4:5:6:7:8]", URLParts(scheme: "http", host: "1:2:3:4:5:6:7:8", path: "/")),
            ("http://host?q", URLParts(scheme: "http", host: "host", path: "/", query: "q")),
            ("http://host/?", URLParts(scheme: "http", host: "host", path: "/", query: "")),
            ("http://host/p#frag", URLParts(scheme: "http", host: "host", path: "/p")),
            ("http://my_tv-1.local./", URLParts(scheme: "http", host: "my_tv-1.local.", path: "/")),
            ("http://1.2.3.4:65535", URLParts(scheme: "http", host: "1.2.3.4", port: 65535, path: "/")),
        ])
    func parses(text: String, expected: URLParts) throws {
        #expect(try URLParts(parsing: text) == expected)
    }

    @Test(
        "refused URLs",
        arguments: [
            "", "http", "http:", "http:/host/", "http://", "http:///path", "http://evil@1.2.3.4/", "http://a:b@host/",
            "http://host:0/", "http://host:65536/", "http://host:/", "http://host:80a/", "http://host:123456/",
            "http://ho st/", "http://host/pa th", "http://host/\r\nX: y", "http://host/\n", "http://host/\u{0}",
            "http://hôst/", "http://host/ü", "http://1.2.3/", "http://1.2.3.256/", "http://01.2.3.4/",
            "http://1.2.3.4.5/",
            "http://-host/", "http://host-/", "http://a..b/", "http://[::1/", "http://[::1]x/", "http://[1:2:3]/",
            "http://[1:2:3:4:5:6:7:8:9]/", "http://[1::2::3]/", "http://[:1:2:3:4:5:6:7]/", "http://[fe80::1%25eth0]/",
            "http://[12345::]/", "http://[::1.2.3]/", "http://::1/", "http://host\t/", "http://[]/",
        ])
    func refused(text: String) {
        #expect(urlError(text) != nil, "\(text.debugDescription)")
    }

    @Test(
        "other schemes are unsupported",
        arguments: ["ftp://host/", "file:///etc/passwd", "javascript:alert(1)", "tcp://h:1"])
    func otherSchemes(text: String) {
        #expect(urlError(text)?.kind == .unsupported)
    }

    @Test(
        "default and effective ports follow the scheme",
        arguments: [
            ("http", 80), ("ws", 80), ("https", 443), ("wss", 443), ("mqtt", 1883), ("mqtts", 8883),
        ] as [(String, UInt16)])
    func defaultPorts(scheme: String, port: UInt16) throws {
        let parts = try URLParts(parsing: "\(scheme)://host")
        #expect(parts.defaultPort == port)
        #expect(parts.effectivePort == port)
        #expect(try URLParts(parsing: "\(scheme)://host:1234").effectivePort == 1234)
        #expect(parts.isSecure == ["https", "wss", "mqtts"].contains(scheme))
    }

    @Test("request target, Host header and description are written back correctly")
    func derivedStrings() throws {
        let parts = try URLParts(parsing: "WS://[::1]:8001/api/v2/?name=eA==#x")
        #expect(parts.requestTarget == "/api/v2/?name=eA==")
        #expect(parts.hostHeader == "[::1]:8001")
        #expect(parts.description == "ws://[::1]:8001/api/v2/?name=eA==")
        #expect(try URLParts(parsing: parts.description) == parts)
        #expect(try URLParts(parsing: "http://h").hostHeader == "h")
    }

    @Test("a LOCATION can be compared with the responder's address")
    func locationMatchesSource() throws {
        let location = try URLParts(parsing: "http://203.0.113.134:8060/")
        #expect(location.host == "203.0.113.134")
        #expect(location.effectivePort == 8060)
        // A disguised host ("203.0.113.134@192.0.2.1") never reaches the comparison.
        #expect(urlError("http://203.0.113.134@192.0.2.1:8060/") != nil)
    }

    @Test("over-long URLs are tooLarge")
    func tooLong() {
        #expect(urlError("http://host/" + String(repeating: "a", count: 5000))?.kind == .tooLarge)
    }
}
