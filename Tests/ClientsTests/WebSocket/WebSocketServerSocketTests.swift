import Clients
import Net
import Testing
import Wire

/// Our server side, driven by a raw TCP client that writes exactly the bytes each test needs.
@Suite("WebSocket server over loopback sockets")
struct WebSocketServerSocketTests {
    private static let upgrade = Array(
        ("GET /ecp-session HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + "Sec-WebSocket-Protocol: ecp-2\r\n\r\n").utf8)

    /// Reads until `count` bytes arrived or the server closed.
    private func read(_ connection: TCPConnection, atLeast count: Int) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count < count {
            let chunk = try await connection.read(maxBytes: 64 * 1024, deadline: .now + .seconds(30))
            if chunk.isEmpty { break }
            bytes += chunk
        }
        return bytes
    }

    /// Splits what the server sent into the HTTP head and the frames after it.
    private func split(_ bytes: [UInt8]) throws -> (head: String, frames: [WebSocketFrame]) {
        let marker = Array("\r\n\r\n".utf8)
        guard
            let end = (0...(max(0, bytes.count - 4))).first(where: {
                Array(bytes[$0..<min(bytes.count, $0 + 4)]) == marker
            })
        else { return (String(decoding: bytes, as: UTF8.self), []) }
        var parser = WebSocketFrameParser(role: .client)
        parser.append(bytes[(end + 4)...])
        var frames: [WebSocketFrame] = []
        while let frame = try parser.next() { frames.append(frame) }
        return (String(decoding: bytes[..<end], as: UTF8.self), frames)
    }

    @Test("a frame sent in the same write as the upgrade request is not lost")
    func frameWithRequest() async throws {
        let server = try LoopbackServer.echo()
        defer { server.stop() }
        try await within {
            let tcp = try await TCPConnection.connect(
                to: SocketAddress(ip: "127.0.0.1", port: server.port))
            defer { tcp.close() }
            try await tcp.write(
                Self.upgrade + WebSocketFrame.text("early").encode(maskingKey: [1, 2, 3, 4]))
            var received: [UInt8] = []
            var (head, frames) = ("", [WebSocketFrame]())
            while frames.isEmpty {
                let chunk = try await tcp.read(maxBytes: 4096, deadline: .now + .seconds(30))
                if chunk.isEmpty { break }
                received += chunk
                (head, frames) = try split(received)
            }
            #expect(head.hasPrefix("HTTP/1.1 101 Switching Protocols"))
            #expect(head.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
            #expect(head.contains("Sec-WebSocket-Protocol: ecp-2"))
            #expect(frames == [.text("early")])
        }
    }

    @Test("an unmasked client frame gets a 1002 close")
    func unmaskedFrame() async throws {
        let server = try LoopbackServer.echo()
        defer { server.stop() }
        try await within {
            let tcp = try await TCPConnection.connect(
                to: SocketAddress(ip: "127.0.0.1", port: server.port))
            defer { tcp.close() }
            try await tcp.write(Self.upgrade + WebSocketFrame.text("naked").encode(maskingKey: nil))
            let (_, frames) = try split(try await read(tcp, atLeast: .max))
            #expect(frames.map(\.opcode) == [.close])
            let closeCode = frames.first.map { Array($0.payload.prefix(2)) }
            #expect(closeCode == [0x03, 0xEA])
        }
    }

    @Test("a plain GET on a WebSocket-only server gets 426 and the stream is closed")
    func plainRequest() async throws {
        let refused = AsyncStream.makeStream(of: WebSocketError.self)
        let server = try LoopbackServer.start { stream in
            do {
                _ = try await WebSocketServerHandshake.accept(stream: stream, timeout: .seconds(30))
            } catch let error as WebSocketError {
                refused.continuation.yield(error)
            } catch {}
        }
        defer { server.stop() }
        try await within {
            let tcp = try await TCPConnection.connect(
                to: SocketAddress(ip: "127.0.0.1", port: server.port))
            defer { tcp.close() }
            try await tcp.write(Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            let answer = String(decoding: try await read(tcp, atLeast: .max), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 426 Upgrade Required\r\n"))
            var errors = refused.stream.makeAsyncIterator()
            let error = await errors.next()
            #expect(error?.status == 426)
        }
    }
}
