import Drivers
import TestSupport
import Testing

@Suite("Samsung remote-channel events", .cpuBound)
struct SamsungEventTests {
    @Test("fixture ms.channel.connect: the token is a JSON number")
    func connectFixture() throws {
        let event = try SamsungEvent.decode(
            TestFixtures.bytes("samsung/event_ms_channel_connect.json"))
        #expect(event == .connected(token: SamsungToken("123456789")))
    }

    @Test("fixture ed.installedApp.get: every app with id, name and type")
    func appsFixture() throws {
        let event = try SamsungEvent.decode(
            TestFixtures.bytes("samsung/event_ed_installedApp_get.json"))
        #expect(
            event
                == .installedApps([
                    SamsungInstalledApp(
                        appID: "111299001912", name: "YouTube", appType: 2,
                        iconPath: "/opt/share/webappservice/apps_icon/FirstScreen/111299001912/250x250.png"),
                    SamsungInstalledApp(
                        appID: "3201608010191", name: "Deezer", appType: 2,
                        iconPath: "/opt/share/webappservice/apps_icon/FirstScreen/3201608010191/250x250.png"),
                ]))
        if case .installedApps(let apps) = event {
            let allDeepLinks = apps.allSatisfy { $0.launchType == .deepLink }
            #expect(allDeepLinks)
        }
    }

    @Test("fixture ms.error carries its message")
    func errorFixture() throws {
        let event = try SamsungEvent.decode(TestFixtures.bytes("samsung/event_ms_error.json"))
        #expect(event == .error("unrecognized method value : ms.application.stop"))
    }

    @Test("fixture ed.apps.launch: data 200 is success")
    func launchFixture() throws {
        let event = try SamsungEvent.decode(
            TestFixtures.bytes("samsung/event_ed_apps_launch.json"))
        #expect(event == .appLaunch(succeeded: true, detail: "200"))
        let refused = try SamsungEvent.decode(utf8(#"{"event":"ed.apps.launch","data":404}"#))
        #expect(refused == .appLaunch(succeeded: false, detail: "404"))
        // Found by the samsung fuzz target (CI, 2026-11-24): a whole number too large for Int64
        // in `data` trapped while it was turned into the detail text. The input as found:
        let huge =
            "{\n  \"data\": 1" + String(repeating: "9", count: 69)
            + ",\n  \"event\": \"ed.apps.launch\",\n  \"from\": \"host\"\n}\n"
        let found = try SamsungEvent.decode(utf8(huge))
        #expect(found == .appLaunch(succeeded: false, detail: "2e+69"))
        let large = try SamsungEvent.decode(utf8(#"{"event":"ed.apps.launch","data":1e300}"#))
        #expect(large == .appLaunch(succeeded: false, detail: "1e+300"))
    }

    @Test(
        "the token as a string, as a number, or only in clients[].attributes",
        arguments: [
            (#"{"event":"ms.channel.connect","data":{"token":"55555"}}"#, "55555"),
            (#"{"event":"ms.channel.connect","data":{"token":55555}}"#, "55555"),
            (
                #"{"event":"ms.channel.connect","data":{"id":"x","clients":[{"id":"c","isHost":false,"attributes":{"name":"dHYybXF0dA==","token":"777"}}]}}"#,
                "777"
            ),
            (
                #"{"event":"ms.channel.connect","data":{"token":"1","clients":[{"attributes":{"token":"2"}}]}}"#,
                "1"
            ),
        ])
    func tokenForms(text: String, token: String) throws {
        #expect(try SamsungEvent.decode(utf8(text)) == .connected(token: SamsungToken(token)))
    }

    @Test(
        "no token: tokenless TVs, empty strings, fractional numbers",
        arguments: [
            #"{"event":"ms.channel.connect"}"#, #"{"event":"ms.channel.connect","data":{}}"#,
            #"{"event":"ms.channel.connect","data":{"token":""}}"#,
            #"{"event":"ms.channel.connect","data":{"token":1.5,"clients":[{"attributes":{}}]}}"#,
        ])
    func noToken(text: String) throws {
        #expect(try SamsungEvent.decode(utf8(text)) == .connected(token: nil))
    }

    @Test("verdicts, noise and unknown events")
    func names() throws {
        func decode(_ name: String) throws -> SamsungEvent {
            try SamsungEvent.decode(utf8("{\"event\":\"\(name)\",\"data\":{}}"))
        }
        #expect(try decode("ms.channel.unauthorized") == .unauthorized)
        #expect(try decode("ms.channel.timeOut") == .timeOut)
        for noise in [
            "ms.channel.ready", "ms.channel.clientConnect", "ms.channel.clientDisconnect",
            "ed.edenTV.update",
            "ms.voiceApp.hide", "ms.remote.imeStart", "ms.remote.imeEnd",
        ] {
            #expect(try decode(noise) == .ignorable(noise))
        }
        #expect(try decode("d2d_service_message") == .other("d2d_service_message"))
    }

    @Test("app list entries without id or name are skipped; app_type as a string is read")
    func lenientApps() throws {
        let text =
            #"{"event":"ed.installedApp.get","data":{"data":[{"appId":"1","name":"A","app_type":"4"},{"name":"no id"},{"appId":"3"},7]}}"#
        #expect(
            try SamsungEvent.decode(utf8(text))
                == .installedApps([SamsungInstalledApp(appID: "1", name: "A", appType: 4)]))
        #expect(SamsungInstalledApp(appID: "1", name: "A", appType: 4).launchType == .nativeLaunch)
    }

    @Test(
        "malformed, truncated, non-object and eventless frames are errors",
        arguments: [
            "", "{", #"{"event":"ms.channel.connect","data":{"token":"#, "[]", "42", #"{"data":{}}"#,
            #"{"event":7}"#, #"{"event":"a","event":"b"}"#, "{\"event\":\"x\"} trailing",
        ])
    func malformed(text: String) {
        #expect(throws: DriverError.self) { try SamsungEvent.decode(utf8(text)) }
    }

    @Test("oversized and deeply nested frames are refused before they cost much")
    func limits() {
        let big = "{\"event\":\"x\",\"data\":\"" + String(repeating: "a", count: 300 * 1024) + "\"}"
        #expect(throws: DriverError.self) { try SamsungEvent.decode(utf8(big)) }
        let deep =
            "{\"event\":\"x\",\"data\":" + String(repeating: "[", count: 1000)
            + String(repeating: "]", count: 1000) + "}"
        #expect(throws: DriverError.self) { try SamsungEvent.decode(utf8(deep)) }
    }

    @Test(
        "every prefix of a real frame cut before its closing brace fails cleanly (badResponse, naming the JSON); with it, it decodes to the whole frame"
    )
    func prefixes() throws {
        let bytes = try TestFixtures.bytes("samsung/event_ed_installedApp_get.json")
        let whole = try SamsungEvent.decode(bytes)
        let closing = try #require(bytes.lastIndex(of: UInt8(ascii: "}")))
        for end in 0..<bytes.count {
            let prefix = bytes[0..<end]
            if end > closing {
                #expect(try SamsungEvent.decode(prefix) == whole, "prefix of \(end) bytes")
            } else {
                let error = #expect(throws: DriverError.self) { try SamsungEvent.decode(prefix) }
                #expect(error?.kind == .badResponse, "prefix of \(end) bytes")
                let message = error?.message ?? ""
                #expect(message.contains("not usable JSON"), "prefix of \(end) bytes: \(message)")
            }
        }
    }

    @Test("nothing holding a token prints it")
    func redaction() throws {
        let token = try #require(SamsungToken("987654321"))
        let event = SamsungEvent.connected(token: token)
        let action = SamsungSessionAction.persistToken(token)
        let endpoint = SamsungRemoteEndpoint.secure(
            host: "192.0.2.60", clientName: "tv2mqtt", token: token)
        let texts = [
            "\(token)", String(reflecting: token), "\(event)", String(reflecting: event), "\(action)",
            String(reflecting: action), "\(endpoint)", String(reflecting: endpoint), "\([token])",
            "\(Optional(token) as Any)",
        ]
        for text in texts { #expect(!text.contains("987654321"), "leaked in: \(text)") }
        var dumped = ""
        dump(event, to: &dumped)
        dump(endpoint, to: &dumped)
        #expect(!dumped.contains("987654321"))
        #expect(endpoint.url.query?.contains("token=987654321") == true, "the URL itself carries it")
    }
}
