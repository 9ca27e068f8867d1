import Support
import Synchronization
import TVModel
import TestSupport
import Testing
import Wire

@testable import Drivers

@Suite("LG SSAP messages", .cpuBound)
struct LGMessageTests {
    @Test("a response, a registered and an error decode with their id, payload and error text")
    func decodes() throws {
        let response = try LGMessage.decode(Array(#"{"type":"response","id":"7","payload":{"volume":10}}"#.utf8))
        #expect(response.type == "response")
        #expect(response.id == "7")
        #expect(response.payload["volume"]?.intValue == 10)
        let numeric = try LGMessage.decode(Array(#"{"type":"response","id":7}"#.utf8))
        #expect(numeric.id == "7", "aiowebostv-style integer ids are read as their text")
        let error = try LGMessage.decode(
            Array(#"{"type":"error","id":"register_0","error":"403 User denied access","payload":{}}"#.utf8))
        #expect(error.error == "403 User denied access")
        let refused = try LGMessage.decode(
            Array(#"{"type":"response","id":"1","payload":{"returnValue":false,"errorText":"TV is in standby"}}"#.utf8))
        #expect(refused.refusal == "TV is in standby")
    }

    @Test(
        "malformed messages are refused with a clear error",
        arguments: [
            "not json", "[1,2]", #"{"id":"1"}"#, #"{"type":7}"#, "", String(repeating: "[", count: 100),
        ])
    func malformed(text: String) {
        #expect(throws: DriverError.self) { try LGMessage.decode(Array(text.utf8)) }
    }

    @Test("a message larger than the limit is refused before it is parsed")
    func huge() throws {
        let big = Array(repeating: UInt8(ascii: " "), count: LGMessage.maxBytes + 1)
        let error = try #require(throws: DriverError.self) { try LGMessage.decode(big) }
        #expect(error.message.contains("at most"))
    }

    @Test("a payload that is not an object reads as empty, and the description never shows the payload")
    func payloadShape() throws {
        let message = try LGMessage.decode(
            Array(#"{"type":"registered","id":"register_0","payload":{"client-key":"secretkey"}}"#.utf8))
        #expect(!message.description.contains("secretkey"))
        let odd = try LGMessage.decode(Array(#"{"type":"response","id":"1","payload":[1]}"#.utf8))
        #expect(odd.payload == .object([:]))
    }

    @Test("the register message carries the key only when there is one")
    func register() throws {
        let first = try JSONParser.parse(LGRegistration.message(clientKey: nil))
        #expect(first["payload"]?["client-key"] == nil)
        #expect(first["payload"]?["pairingType"]?.stringValue == "PROMPT")
        let again = try JSONParser.parse(LGRegistration.message(clientKey: "abc"))
        #expect(again["payload"]?["client-key"]?.stringValue == "abc")
        #expect(!LGRegistration.isPlausibleKey("has space"))
        #expect(!LGRegistration.isPlausibleKey(String(repeating: "a", count: 129)))
        #expect(LGRegistration.isPlausibleKey("0123456789abcdef0123456789abcdef"))
    }

    @Test("a pointer socket on another host, or in clear on a TLS connection, is refused")
    func pointerPath() throws {
        let good = try LGConnection.checkedPointerURL(
            "wss://127.0.0.5:3001/resources/ab/netinput.pointer.sock", host: "127.0.0.5", secure: true)
        #expect(good.port == 3001)
        let elsewhere = try #require(throws: DriverError.self) {
            try LGConnection.checkedPointerURL("wss://192.0.2.1:3001/x", host: "127.0.0.5", secure: true)
        }
        #expect(elsewhere.message.contains("another host"))
        #expect(throws: DriverError.self) {
            try LGConnection.checkedPointerURL("ws://127.0.0.5:3000/x", host: "127.0.0.5", secure: true)
        }
        #expect(throws: DriverError.self) {
            try LGConnection.checkedPointerURL("not a url", host: "127.0.0.5", secure: true)
        }
    }

    @Test("the presented fingerprint is read from the TLS layer's pin-mismatch message")
    func fingerprint() {
        let seen = LGSession.presentedFingerprint("wss://h:3001/: certificate changed: pinned aa:bb, got CC:DD:EE")
        #expect(seen == "ccddee")
    }
}

@Suite("LG connection: what the TV sends unasked", .cpuBound)
struct LGConnectionInboundTests {
    @Test("answers to unknown ids, unknown types, messages without id and garbage are dropped, said at debug")
    func dropped() async {
        let sink = CapturingSink()
        let pushes = Mutex<[String?]>([])
        let connection = LGConnection(
            configuration: LGConnection.Configuration(host: "127.0.0.1"),
            logger: Logger(label: "test", sink: sink, threshold: LogThreshold(.debug)), emit: { _ in },
            onPush: { uri, _ in pushes.withLock { $0.append(uri) } })
        for text in [
            #"{"type":"response","id":"999","payload":{"volume":5}}"#, #"{"type":"surprise","id":"1"}"#,
            #"{"type":"response","payload":{}}"#, "garbage",
        ] {
            await connection.receive(text)
        }
        let lines = sink.lines
        let unasked = lines.filter { $0.contains("answers nothing asked") }.count
        let withoutID = lines.filter { $0.contains("without an id") }.count
        let garbage = lines.filter { $0.contains("ignored an SSAP message") }.count
        #expect(unasked == 2, "\(lines)")
        #expect(withoutID == 1)
        #expect(garbage >= 1)
        let pushed = pushes.withLock { $0 }
        #expect(pushed.isEmpty, "nothing unasked is taken as state")
    }
}
