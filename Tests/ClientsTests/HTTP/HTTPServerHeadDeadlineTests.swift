import Clients
import Net
import Testing
import Wire

/// A client that opens a connection and sends its head slowly holds a slot only until
/// `headDeadline`: the slots cannot be taken by 32 one-byte requests for the whole
/// `requestDeadline`. Virtual time: the server runs under a `ManualClock`, its sockets are real.
@Suite("HTTP server head deadline")
struct HTTPServerHeadDeadlineTests {
    static func server(_ clock: ManualClock) async throws -> HTTPServer {
        var limits = HTTPServerLimits()
        limits.requestDeadline = .seconds(10)
        limits.headDeadline = .seconds(2)
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        return await clock.run {
            HTTPServer.start(listener: listener, serverHeader: "test", limits: limits) { _, _ in
                HTTPServerReply(HTTPResponse(status: 200, body: Array("ok".utf8)))
            }
        }
    }

    static func read(_ connection: TCPConnection) async -> String {
        var text = ""
        while let bytes = try? await connection.read(maxBytes: 4096, deadline: .now + .seconds(30)), !bytes.isEmpty {
            text += String(decoding: bytes, as: UTF8.self)
        }
        return text
    }

    @Test("one byte of a head gets 408 at exactly the head deadline, not the request deadline")
    func oneByte() async throws {
        let clock = ManualClock()
        let server = try await Self.server(clock)
        defer { server.close() }
        let connection = try await TCPConnection.connect(
            to: try SocketAddress(ip: "127.0.0.1", port: server.port), timeout: .seconds(30))
        defer { connection.close() }
        try await connection.write(Array("G".utf8), deadline: .now + .seconds(30))
        let armed = await clock.waitForTimer(at: .seconds(2))
        #expect(armed, "the read waits for the head until 2 s")
        await clock.advance(to: .seconds(2))
        let answer = await Self.read(connection)
        #expect(answer.hasPrefix("HTTP/1.1 408"))
    }

    @Test("a complete head has the request deadline for its body; an idle connection closes at the head deadline")
    func bodyAndIdle() async throws {
        let clock = ManualClock()
        let server = try await Self.server(clock)
        defer { server.close() }
        let connection = try await TCPConnection.connect(
            to: try SocketAddress(ip: "127.0.0.1", port: server.port), timeout: .seconds(30))
        defer { connection.close() }
        let head = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nab"
        try await connection.write(Array(head.utf8), deadline: .now + .seconds(30))
        let armed = await clock.waitForTimer(at: .seconds(10))
        #expect(armed, "the body may take the request deadline")
        await clock.advance(to: .seconds(3))
        try await connection.write(Array("cd".utf8), deadline: .now + .seconds(30))
        var parser = HTTPResponseParser()
        var response: HTTPResponse?
        while response == nil, let bytes = try? await connection.read(maxBytes: 4096, deadline: .now + .seconds(30)),
            !bytes.isEmpty
        {
            parser.append(bytes)
            response = try parser.next()
        }
        #expect(response?.status == 200)
        // Kept alive, then idle: it closes quietly at the next head deadline, 2 s after the answer.
        let idle = await clock.waitForTimer(at: .seconds(5))
        #expect(idle)
        await clock.advance(to: .seconds(5))
        let rest = await Self.read(connection)
        #expect(rest.isEmpty)
    }
}
