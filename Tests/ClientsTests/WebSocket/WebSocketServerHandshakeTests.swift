import Clients
import Net
import TestSupport
import Testing
import Wire

@Suite("WebSocket server handshake", .cpuBound)
struct WebSocketServerHandshakeTests {
    private func request(_ headers: [(String, String)], method: String = "GET") -> HTTPRequest {
        HTTPRequest(
            method: method, target: "/ecp-session",
            headers: HTTPHeaders([("Host", "127.0.0.2:8060")] + headers))
    }

    private let valid: [(String, String)] = [
        ("Upgrade", "websocket"), ("Connection", "Upgrade"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
        ("Sec-WebSocket-Version", "13"),
    ]

    @Test("the RFC 6455 example: 101 with the right accept value")
    func accepts() throws {
        let outcome = WebSocketServerHandshake.respond(to: request(valid))
        guard case .accept(let response, let subprotocol) = outcome else {
            Issue.record("refused: \(outcome)")
            return
        }
        #expect(response.status == 101 && subprotocol == nil)
        #expect(response.headers["Sec-WebSocket-Accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(response.headers["Upgrade"] == "websocket")
        #expect(response.headers["Sec-WebSocket-Protocol"] == nil)
        #expect(
            try String(decoding: response.encode(), as: UTF8.self).hasPrefix(
                "HTTP/1.1 101 Switching Protocols\r\n"))
    }

    @Test("the server's preferred subprotocol among those offered is chosen")
    func subprotocols() {
        let offered =
            valid + [("Sec-WebSocket-Protocol", "chat, ecp-2"), ("Sec-WebSocket-Protocol", "ecp-1")]
        let outcome = WebSocketServerHandshake.respond(
            to: request(offered), subprotocols: ["ecp-1", "ecp-2"])
        #expect(outcome.response.headers["Sec-WebSocket-Protocol"] == "ecp-1")
        let none = WebSocketServerHandshake.respond(
            to: request(valid), subprotocols: ["ecp-2"], requireSubprotocol: true)
        #expect(none.response.status == 400)
    }

    @Test(
        "invalid upgrade requests are refused with 400 or 426",
        arguments: [
            ("POST", "Upgrade", "websocket", 400),
            ("GET", "Upgrade", "h2c", 426),
            ("GET", "Connection", "keep-alive", 400),
            ("GET", "Sec-WebSocket-Version", "8", 426),
            ("GET", "Sec-WebSocket-Key", "short", 400),
            ("GET", "Sec-WebSocket-Key", "AAAAAAAAAAAAAAAAAAAAAAAA", 400),  // 18 bytes
        ])
    func refusals(method: String, header: String, value: String, status: Int) {
        var headers = HTTPHeaders(valid)
        headers[header] = value
        let outcome = WebSocketServerHandshake.respond(
            to: request(Array(headers.map { ($0.name, $0.value) }), method: method))
        guard case .reject(let response, let reason) = outcome else {
            Issue.record("accepted")
            return
        }
        #expect(response.status == status)
        #expect(response.body == Array(reason.utf8))
        if status == 426 && header == "Sec-WebSocket-Version" {
            #expect(response.headers["Sec-WebSocket-Version"] == "13")
        }
    }

    @Test("a client handshake request passes the server handshake")
    func clientRequestIsValid() throws {
        let handshake = try WebSocketClientHandshake(
            url: URLParts(parsing: "ws://127.0.0.2:8060/ecp-session"), subprotocols: ["ecp-2"],
            headers: ["Origin": "tv2mqtt", "Host": "evil.example"],
            nonce: [UInt8](repeating: 9, count: 16))
        #expect(handshake.request.headers["Host"] == "127.0.0.2:8060")
        #expect(handshake.request.headers.values(for: "Host").count == 1)
        #expect(handshake.request.headers["Origin"] == "tv2mqtt")
        let outcome = WebSocketServerHandshake.respond(to: handshake.request, subprotocols: ["ecp-2"])
        #expect(try handshake.validate(outcome.response) == "ecp-2")
    }
}
