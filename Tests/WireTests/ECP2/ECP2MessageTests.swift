import Net
import TestSupport
import Testing
import Wire

@Suite("Roku ECP-2 messages and the challenge answer", .cpuBound)
struct ECP2MessageTests {
    /// Key-derivation vectors computed independently of this code, with Python's hashlib:
    ///
    ///     python3 -c '
    ///     from hashlib import sha1; from base64 import b64encode
    ///     KEY="95E610D0-7C29-44EF-FB0F-97F1FCE4C297"
    ///     t=lambda c: c if c not in "0123456789ABCDEF" else "%X"%((15-int(c,16)+9)&15)
    ///     k="".join(map(t,KEY)); print(k)
    ///     for c in ["3KwH7h3HTmxFziLtrzVg5w==","abc"]: print(b64encode(sha1((c+k).encode()).digest()).decode())'
    ///
    /// The first challenge and its answer are also the ones captured between a real Roku TV and
    /// the official app (seed 000_5eaa8a3bcf1556ae, Tests/Fixtures/roku/ecp2-authenticate-*.json).
    @Test("the key derivation matches vectors computed with Python and the captured exchange")
    func keyDerivation() {
        #expect(ECP2Authentication.transformedKey == "F3A278B8-1C6F-44A9-9D89-F1979CA4C6F1")
        let captured = ECP2Authentication.response(challenge: "3KwH7h3HTmxFziLtrzVg5w==", sha1: Digest.sha1)
        #expect(captured == "6yYiyDKcbca3qwig1hylU0dHqUQ=")
        let short = ECP2Authentication.response(challenge: "abc", sha1: Digest.sha1)
        #expect(short == "tKpZwz/qXe0j9nOSK/nIiny0i0M=")
        let otherKey = ECP2Authentication.response(challenge: "abc", key: "00000000", sha1: Digest.sha1)
        #expect(otherKey != short)
    }

    @Test("the captured challenge, authentication and query answer parse")
    func capturedMessages() throws {
        let challenge = try ECP2Message.parse(
            #"{"notify":"authenticate","param-challenge":"3KwH7h3HTmxFziLtrzVg5w==","timestamp":"608921.943"}"#)
        #expect(challenge.kind == .notify("authenticate"))
        #expect(challenge["param-challenge"] == "3KwH7h3HTmxFziLtrzVg5w==")
        let ok = try ECP2Message.parse(
            #"{"response":"authenticate","response-id":"1","status":"200","status-msg":"OK"}"#)
        #expect(ok.kind == .response("authenticate", id: "1") && ok.isSuccess && ok.status == 200)
        let player = try ECP2Message.parse(
            #"{"content-data":"PD94bWwgdmVyc2lvbj0iMS4wIiBlbmNvZGluZz0iVVRGLTgiID8+CjxwbGF5ZXIgc3RhdGU9ImNsb3NlIiBlcnJvcj0iZmFsc2UiIC8+Cg==","content-type":"text/xml; charset=\"utf-8\"","response":"query-media-player","response-id":"3","status":"200","status-msg":"OK"}"#
        )
        let xml = String(decoding: try #require(try player.content()), as: UTF8.self)
        #expect(xml.contains(#"<player state="close" error="false" />"#))
    }

    @Test("requests and responses survive a round trip, every value a string")
    func roundTrip() throws {
        let request = ECP2Message.request("key-press", id: "7", ["param-key": "Lit_\"é"])
        let parsed = try ECP2Message.parse(request.serialized())
        #expect(parsed == request)
        #expect(parsed.kind == .request("key-press", id: "7"))
        let response = ECP2Message.response("query-apps", id: "8", status: 200, content: Array("<apps/>".utf8))
        let decoded = try ECP2Message.parse(response.serialized())
        #expect(try decoded.content() == Array("<apps/>".utf8))
        let refused = ECP2Message.response("authenticate", id: "1", status: 401, message: "Unauthorized")
        #expect(!refused.isSuccess)
        // Numbers and booleans a TV might send unquoted are read as their text.
        let loose = try ECP2Message.parse(#"{"response":"x","response-id":2,"status":202,"flag":true}"#)
        #expect(loose["response-id"] == "2" && loose.isSuccess && loose["flag"] == "true")
    }

    @Test("malformed input is an error, never a trap")
    func malformed() {
        let inputs = [
            "", "[]", "null", "\"text\"", "{", #"{"status":"200"}"#, #"{"notify":["x"]}"#,
            String(repeating: "[", count: 10_000),
        ]
        for input in inputs {
            #expect(throws: WireError.self) { try ECP2Message.parse(input) }
        }
        let badContent = ECP2Message(["response": "q", "response-id": "1", "content-data": "!!"])
        #expect(throws: WireError.self) { try badContent.content() }
        #expect(ECP2Message(["response": "q", "status": "abc"]).isSuccess == false)
    }
}
