import Clients
import Drivers
import Testing
import Wire
import TestSupport

/// The art channel's messages (`SamsungArtRequest`, `SamsungArtEvent`): the shapes real
/// clients and TVs use (Tests/Fixtures/samsung/art_*.json), and bad input of every kind.
@Suite("Samsung art-channel messages", .cpuBound)
struct SamsungArtMessageTests {
    @Test(
        "fixtures: an artmode_status answer wrapped in params is another client's relay; art_mode_changed with value and with status; an error"
    )
    func fixtures() throws {
        // samsungctl logged this answer in the shape clients emit: as such it is no word of the TV.
        let relayed = try SamsungArtEvent.decode(TestFixtures.bytes("samsung/art_artmode_status.json"))
        #expect(relayed == .relayed("d2d_service_message"))
        let value = try SamsungArtEvent.decode(TestFixtures.bytes("samsung/art_mode_changed_value.json"))
        #expect(value == .message(SamsungArtPayload(event: "art_mode_changed", value: "on"), from: nil))
        let byStatus = try SamsungArtEvent.decode(TestFixtures.bytes("samsung/art_mode_changed_status.json"))
        #expect(byStatus == .message(SamsungArtPayload(event: "art_mode_changed", value: "on"), from: nil))
        let error = try SamsungArtEvent.decode(TestFixtures.bytes("samsung/art_error.json"))
        #expect(error == .message(SamsungArtPayload(event: "error", requestID: "r", errorCode: "-7"), from: nil))
    }

    @Test("the three generations' status replies decode to the same payload fields (ids, value)")
    func generations() throws {
        // 2019 (homebridge-samsung-tizen PR 108's capture): artmode_status, id, target_client_id, from the host id.
        let y2019 =
            #"{"data":"{\"id\":\"30852acd\",\"event\":\"artmode_status\",\"value\":\"off\",\"target_client_id\":\"68fc\"}","event":"d2d_service_message","from":"849324e8"}"#
        #expect(
            try SamsungArtEvent.decode(utf8(y2019))
                == .message(
                    SamsungArtPayload(event: "artmode_status", requestID: "30852acd", value: "off"), from: "849324e8"))
        // 2023+ (ha-samsungtv-smart issue 264's log): named after the request, request_id.
        let y2023 =
            #"{"event":"d2d_service_message","from":"host","data":"{\"event\":\"get_artmode_status\",\"request_id\":\"c14b\",\"value\":\"on\"}"}"#
        #expect(
            try SamsungArtEvent.decode(utf8(y2023))
                == .message(
                    SamsungArtPayload(event: "get_artmode_status", requestID: "c14b", value: "on"), from: "host"))
        let connect =
            #"{"data":{"clients":[{"deviceName":"Smart Device","id":"849324e8","isHost":true},{"id":"68fc","isHost":false}],"id":"68fc"},"event":"ms.channel.connect"}"#
        #expect(try SamsungArtEvent.decode(utf8(connect)) == .connected(hostIDs: ["849324e8"]))
        let version =
            #"{"event":"d2d_service_message","data":"{\"event\":\"api_version\",\"request_id\":\"v\",\"version\":\"4.3.4.0\"}"}"#
        #expect(
            try SamsungArtEvent.decode(utf8(version))
                == .message(SamsungArtPayload(event: "api_version", requestID: "v", version: "4.3.4.0"), from: nil))
    }

    @Test("our set request has the shape of a real one (fixture): ms.channel.emit, art_app_request, data a JSON string")
    func requestShape() throws {
        let real = try JSONParser.parse(TestFixtures.bytes("samsung/art_set_artmode_request.json"))
        let ours = try JSONParser.parse(SamsungArtRequest.setArtMode(true, id: "545f").text)
        #expect(ours["method"] == real["method"])
        #expect(ours["params"]?["event"] == real["params"]?["event"])
        #expect(ours["params"]?["to"] == real["params"]?["to"])
        let realData = try JSONParser.parse(#require(real["params"]?["data"]?.stringValue))
        let ourData = try JSONParser.parse(#require(ours["params"]?["data"]?.stringValue))
        #expect(ourData["request"] == realData["request"])
        #expect(ourData["value"] == realData["value"])
        #expect(ourData["id"] == "545f")
        #expect(ourData["request_id"] == "545f")
        let get = try JSONParser.parse(SamsungArtRequest.getArtMode(id: "g1").text)
        let getData = try JSONParser.parse(#require(get["params"]?["data"]?.stringValue))
        #expect(getData["request"] == "get_artmode_status")
        #expect(getData["value"] == nil)
    }

    @Test(
        "connect, ready, unauthorized and other events; states other than on/off are no art mode",
        arguments: [
            (#"{"event":"ms.channel.connect","data":{}}"#, SamsungArtEvent.connected(hostIDs: [])),
            (#"{"event":"ms.channel.ready","data":{}}"#, .ready),
            (#"{"event":"ms.channel.unauthorized"}"#, .unauthorized),
            (#"{"event":"ms.channel.timeOut"}"#, .unauthorized),
            (#"{"event":"ms.error","data":{"message":"nope"}}"#, .error("nope")),
            (
                #"{"event":"d2d_service_message","data":"{\"event\":\"art_mode_changed\",\"status\":\"nav\"}"}"#,
                .message(SamsungArtPayload(event: "art_mode_changed", value: "nav"), from: nil)
            ),
            (
                #"{"event":"d2d_service_message","data":"{\"event\":\"go_to_standby\"}"}"#,
                .message(SamsungArtPayload(event: "go_to_standby"), from: nil)
            ),
            (
                #"{"event":"d2d_service_message","from":"x1","data":{"event":"artmode_status","value":"ON","id":"x"}}"#,
                .message(SamsungArtPayload(event: "artmode_status", requestID: "x", value: "on"), from: "x1")
            ),
            (
                #"{"method":"ms.channel.emit","params":{"event":"d2d_service_message","data":"{}"}}"#,
                .relayed("d2d_service_message")
            ),
            (#"{"event":"ed.edenTV.update"}"#, .other("ed.edenTV.update")),
        ])
    func events(text: String, expected: SamsungArtEvent) throws {
        #expect(try SamsungArtEvent.decode(utf8(text)) == expected)
    }

    @Test(
        "malformed, non-object, eventless frames and unusable payloads are errors, never traps",
        arguments: [
            "", "{", "[]", "42", #"{"data":{}}"#, #"{"event":7}"#, "{\"event\":\"x\"} trailing",
            #"{"event":"d2d_service_message"}"#,
            #"{"event":"d2d_service_message","data":"{"}"#,
            #"{"event":"d2d_service_message","data":"[1,2]"}"#,
            #"{"event":"d2d_service_message","data":42}"#,
            #"{"params":{"data":"x"}}"#,
        ])
    func malformed(text: String) {
        #expect(throws: DriverError.self) { try SamsungArtEvent.decode(utf8(text)) }
    }

    @Test("oversized and deeply nested frames, and oversized or deep inner payloads, are refused")
    func limits() {
        let big = "{\"event\":\"x\",\"data\":\"" + String(repeating: "a", count: 300 * 1024) + "\"}"
        #expect(throws: DriverError.self) { try SamsungArtEvent.decode(utf8(big)) }
        let deep =
            "{\"event\":\"x\",\"data\":" + String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
            + "}"
        #expect(throws: DriverError.self) { try SamsungArtEvent.decode(utf8(deep)) }
        // The inner JSON string is parsed with the same limits.
        let innerDeep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        let wrapped = JSONValue.object(["event": "d2d_service_message", "data": .string(innerDeep)]).serialized()
        #expect(throws: DriverError.self) { try SamsungArtEvent.decode(utf8(wrapped)) }
        let innerBig = JSONValue.object([
            "event": "art_mode_changed", "status": .string(String(repeating: "o", count: 200 * 1024)),
        ]).serialized()
        let bigWrapped = JSONValue.object(["event": "d2d_service_message", "data": .string(innerBig)]).serialized()
        // Under the outer limit once escaped? Either way: an error or a bounded `.other`, never a trap.
        if let event = try? SamsungArtEvent.decode(utf8(bigWrapped)) {
            #expect(event.description.count < 200)
        }
    }

    @Test("every prefix of a real frame cut before its closing brace fails cleanly; the whole frame decodes")
    func truncated() throws {
        let bytes = try TestFixtures.bytes("samsung/art_artmode_status.json")
        let whole = try SamsungArtEvent.decode(bytes)
        let closing = try #require(bytes.lastIndex(of: UInt8(ascii: "}")))
        for end in 0..<bytes.count {
            let prefix = bytes[0..<end]
            if end > closing {
                #expect(try SamsungArtEvent.decode(prefix) == whole, "prefix of \(end) bytes")
            } else {
                let error = #expect(throws: DriverError.self) { try SamsungArtEvent.decode(prefix) }
                #expect(error?.kind == .badResponse, "prefix of \(end) bytes")
            }
        }
    }

    @Test("an art event delivered to the WebSocket client a byte at a time decodes as when whole")
    func byteAtATime() throws {
        let text = try String(
            decoding: TestFixtures.bytes("samsung/art_mode_changed_status.json"), as: UTF8.self)
        let wire = WebSocketFrame(opcode: .text, payload: Array(text.utf8)).encode(maskingKey: nil)
        var session = WebSocketSession(role: .client, now: .now, randomBytes: { Array(repeating: 7, count: $0) })
        var delivered: [String] = []
        for byte in wire {
            for action in session.receive([byte], now: .now) {
                if case .deliver(.text(let message)) = action { delivered.append(message) }
            }
        }
        #expect(delivered.count == 1)
        let event = try SamsungArtEvent.decode(utf8(try #require(delivered.first)))
        #expect(event == .message(SamsungArtPayload(event: "art_mode_changed", value: "on"), from: nil))
    }
}
