import Clients
import TestSupport
import Testing
import Wire

@Suite("WebSocket session: what a peer may not do, and partial input", .cpuBound)
struct WebSocketSessionFailureTests {
    /// Feeds `bytes` to a client session and returns the close code it failed with.
    private func failure(
        _ bytes: [UInt8], _ configuration: WebSocketConfiguration = WebSocketConfiguration()
    )
        throws -> UInt16?
    {
        var client = makeSession(.client, configuration)
        let actions = client.receive(bytes, now: sessionStart)
        let reason = actions.closeReason
        // Our close frame carries the same code, and the connection is not left open.
        let frames = try writtenFrames(actions, by: .client)
        #expect(frames.count == 1 && frames.first?.opcode == .close)
        if let code = reason?.code {
            #expect(frames.first?.payload.prefix(2) == [UInt8(code >> 8), UInt8(code & 0xFF)])
        }
        #expect(client.state == .closed)
        return reason?.code
    }

    @Test("invalid UTF-8 in a text message fails with 1007")
    func invalidUTF8() throws {
        #expect(
            try failure(
                WebSocketFrame(opcode: .text, payload: [0x68, 0xC3, 0x28]).encode(maskingKey: nil)) == 1007)
        // Split across fragments, with the bad sequence at the end.
        var bytes = WebSocketFrame(fin: false, opcode: .text, payload: [0xE2, 0x82]).encode(
            maskingKey: nil)
        bytes += WebSocketFrame(opcode: .continuation, payload: [0x41]).encode(maskingKey: nil)
        #expect(try failure(bytes) == 1007)
    }

    @Test("a frame longer than the limit fails with 1009 from its header alone")
    func oversizeFrame() throws {
        // A header announcing 2^40 bytes and nothing else: refused before any payload is awaited
        // or buffered (allocating a terabyte would crash the test).
        let header: [UInt8] = [0x82, 127, 0, 0, 0x01, 0, 0, 0, 0, 0]
        #expect(try failure(header) == 1009)
        // Just over the 1 MiB default, 16-bit and 64-bit length forms.
        #expect(try failure([0x82, 127, 0, 0, 0, 0, 0, 0x10, 0, 0x01]) == 1009)
        #expect(
            try failure([0x82, 126, 0x01, 0x00], WebSocketConfiguration(maxFrameSize: 200)) == 1009)
    }

    @Test("a message longer than the limit fails with 1009 even when each fragment fits")
    func oversizeMessage() throws {
        let configuration = WebSocketConfiguration(maxFrameSize: 100, maxMessageSize: 150)
        var bytes = WebSocketFrame(
            fin: false, opcode: .binary, payload: [UInt8](repeating: 1, count: 100)
        )
        .encode(maskingKey: nil)
        bytes += WebSocketFrame(opcode: .continuation, payload: [UInt8](repeating: 2, count: 51))
            .encode(maskingKey: nil)
        #expect(try failure(bytes, configuration) == 1009)
    }

    @Test(
        "protocol violations fail with 1002",
        arguments: [
            [0xC1, 0x00],  // RSV1 without an extension
            [0x91, 0x00],  // RSV3
            [0x83, 0x00],  // reserved data opcode 0x3
            [0x8B, 0x00],  // reserved control opcode 0xB
            [0x09, 0x00],  // fragmented ping
            [0x89, 126, 0x00, 0x7E] + [UInt8](repeating: 0, count: 126),  // ping longer than 125
            [0x00, 0x00],  // continuation without a message
            [0x01, 0x01, 0x41, 0x82, 0x00],  // a new message inside a fragmented one
            [0x88, 0x01, 0x03],  // close body of one byte
            [0x88, 0x02, 0x03, 0xED],  // close code 1005 on the wire
            [0x88, 0x02, 0x03, 0xE7],  // close code 999
            [0x81, 126, 0x00, 0x05, 1, 2, 3, 4, 5],  // non-minimal length
        ] as [[UInt8]])
    func protocolViolations(bytes: [UInt8]) throws {
        #expect(try failure(bytes) == 1002)
    }

    @Test("frames delivered one byte at a time come out whole and in order")
    func byteAtATime() throws {
        var server = makeSession(.server)
        var stream: [UInt8] = []
        stream += wire(.text("first"), from: .client)
        stream += wire(.binary([UInt8](repeating: 7, count: 300)), from: .client)  // 16-bit length
        stream += wire(
            WebSocketFrame(fin: false, opcode: .text, payload: Array("frag".utf8)), from: .client)
        stream += wire(.ping([5]), from: .client)
        stream += wire(
            WebSocketFrame(opcode: .continuation, payload: Array("ment".utf8)), from: .client)
        var actions: [WebSocketSessionAction] = []
        for byte in stream { actions += server.receive([byte], now: sessionStart) }
        #expect(
            actions == [
                .deliver(.text("first")), .deliver(.binary([UInt8](repeating: 7, count: 300))),
                .write(WebSocketFrame.pong([5]).encode(maskingKey: nil)), .deliver(.text("fragment")),
            ])
    }

    @Test("a truncated frame waits for the rest")
    func truncated() {
        var client = makeSession(.client)
        let bytes = wire(.binary([UInt8](repeating: 3, count: 70_000)), from: .server)  // 64-bit length
        for cut in [1, 2, 5, 10, 1000, bytes.count - 1] {
            var partial = makeSession(.client)
            #expect(partial.receive(Array(bytes[..<cut]), now: sessionStart).isEmpty)
            #expect(partial.state == .open)
        }
        #expect(client.receive(Array(bytes[..<9]), now: sessionStart).isEmpty)
        #expect(
            client.receive(Array(bytes[9...]), now: sessionStart) == [
                .deliver(.binary([UInt8](repeating: 3, count: 70_000)))
            ])
    }

    @Test(
        "keepalive: a ping after the interval, any traffic resets it, silence after the ping is death")
    func keepAlive() throws {
        let configuration = WebSocketConfiguration(
            keepAliveInterval: .seconds(10), keepAliveTimeout: .seconds(5))
        var client = makeSession(.client, configuration)
        #expect(client.nextDeadline == sessionStart + .seconds(10))
        #expect(client.tick(now: sessionStart + .seconds(9)).isEmpty)
        let ping = client.tick(now: sessionStart + .seconds(10))
        #expect(try writtenFrames(ping, by: .client).map(\.opcode) == [.ping])
        #expect(client.nextDeadline == sessionStart + .seconds(15))
        // A text message (not even a pong) proves the peer alive.
        #expect(
            client.receive(wire(.text("x"), from: .server), now: sessionStart + .seconds(12)).count == 1)
        #expect(client.nextDeadline == sessionStart + .seconds(22))
        #expect(
            try writtenFrames(client.tick(now: sessionStart + .seconds(22)), by: .client).map(\.opcode)
                == [.ping])
        #expect(client.tick(now: sessionStart + .seconds(26)).isEmpty)
        let dead = client.tick(now: sessionStart + .seconds(27)).closeReason
        #expect(dead?.code == 1006 && dead?.initiator == .local)
        #expect(client.state == .closed)
    }

    @Test("without keepalive there is no timer")
    func noKeepAlive() {
        var client = makeSession(.client)
        #expect(client.nextDeadline == nil)
        #expect(client.tick(now: sessionStart + .seconds(3600)).isEmpty)
    }

    @Test("arbitrary bytes never trap, and a session that fails stays closed")
    func randomInput() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<2000 {
            let role: WebSocketRole = round % 2 == 0 ? .client : .server
            var session = makeSession(
                role, WebSocketConfiguration(maxFrameSize: 4096, maxMessageSize: 8192))
            // Start from a valid header half the time so the parser gets past the first checks.
            var bytes: [UInt8] = round % 4 < 2 ? [0x81, role == .server ? 0x85 : 0x05] : []
            bytes += (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            var offset = 0
            while offset < bytes.count && session.state != .closed {
                let size = Int.random(in: 1...64, using: &generator)
                _ = session.receive(
                    Array(bytes[offset..<min(bytes.count, offset + size)]), now: sessionStart)
                offset += size
            }
            if session.state == .closed {
                #expect(session.receive([0x81, 0x00], now: sessionStart).isEmpty)
            }
        }
    }
}
