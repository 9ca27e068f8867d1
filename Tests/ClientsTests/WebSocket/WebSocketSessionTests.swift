import Clients
import TestSupport
import Testing
import Wire

@Suite("WebSocket session: framing, masking, control frames", .cpuBound)
struct WebSocketSessionTests {
    @Test("a client masks every frame with a fresh key from the random source")
    func clientMasks() throws {
        var session = makeSession(.client)
        let first = try session.send(text: "hello")
        let second = try session.send(binary: [1, 2, 3])
        guard case .write(let a) = first.first, case .write(let b) = second.first else {
            Issue.record("expected writes")
            return
        }
        #expect(a[1] & 0x80 != 0 && b[1] & 0x80 != 0)
        #expect(Array(a[2..<6]) == [0, 1, 2, 3])
        #expect(Array(b[2..<6]) == [4, 5, 6, 7])
        #expect(Array(a[6...]) != Array("hello".utf8))  // masked on the wire
        #expect(
            try writtenFrames(first + second, by: .client) == [.text("hello"), .binary([1, 2, 3])])
    }

    @Test("a server never masks, and a client accepts unmasked frames")
    func serverUnmasked() throws {
        var server = makeSession(.server)
        let actions = try server.send(text: "hi")
        #expect(actions == [.write([0x81, 0x02, 0x68, 0x69])])
        var client = makeSession(.client)
        #expect(client.receive([0x81, 0x02, 0x68, 0x69], now: sessionStart) == [.deliver(.text("hi"))])
    }

    @Test("a server requires masked client frames: an unmasked one fails with 1002")
    func serverRequiresMasking() throws {
        var server = makeSession(.server)
        #expect(
            server.receive(wire(.text("ok"), from: .client), now: sessionStart) == [.deliver(.text("ok"))]
        )
        let actions = server.receive(wire(.text("bad"), from: .server), now: sessionStart)
        let closeCodes = try writtenFrames(actions, by: .server).map { Array($0.payload.prefix(2)) }
        #expect(closeCodes == [[0x03, 0xEA]])
        #expect(actions.closeReason?.code == 1002)
        #expect(actions.closeReason?.initiator == .local)
        #expect(server.state == .closed)
        #expect(server.receive(wire(.text("late"), from: .client), now: sessionStart).isEmpty)
    }

    @Test("a client refuses masked server frames with 1002")
    func clientRefusesMasked() {
        var client = makeSession(.client)
        #expect(
            client.receive(wire(.text("x"), from: .client), now: sessionStart).closeReason?.code == 1002)
    }

    @Test("fragments are reassembled, with pings between them answered at once")
    func fragmentationWithPings() throws {
        var server = makeSession(.server)
        var bytes: [UInt8] = []
        bytes += wire(
            WebSocketFrame(fin: false, opcode: .text, payload: Array("Hel".utf8)), from: .client)
        bytes += wire(.ping([9, 9]), from: .client)
        bytes += wire(
            WebSocketFrame(fin: false, opcode: .continuation, payload: Array("lo ".utf8)), from: .client)
        bytes += wire(.pong([1]), from: .client)  // unsolicited: ignored
        bytes += wire(
            WebSocketFrame(fin: true, opcode: .continuation, payload: Array("wörld".utf8)), from: .client)
        let actions = server.receive(bytes, now: sessionStart)
        #expect(
            actions == [
                .write(WebSocketFrame.pong([9, 9]).encode(maskingKey: nil)), .deliver(.text("Hello wörld")),
            ])
    }

    @Test("a ping is answered with a pong carrying its data; an unsolicited pong does nothing")
    func pingPong() throws {
        var client = makeSession(.client)
        let actions = client.receive(wire(.ping(Array("abc".utf8)), from: .server), now: sessionStart)
        #expect(try writtenFrames(actions, by: .client) == [.pong(Array("abc".utf8))])
        #expect(client.receive(wire(.pong([1, 2]), from: .server), now: sessionStart).isEmpty)
    }

    @Test(
        "the peer closes: its code is echoed and reported", arguments: [UInt16(1000), 1001, 3000, 4999])
    func peerCloses(code: UInt16) throws {
        var client = makeSession(.client)
        let actions = client.receive(
            wire(.close(code: code, reason: "bye"), from: .server), now: sessionStart)
        #expect(try writtenFrames(actions, by: .client) == [.close(code: code)])
        #expect(
            actions.closeReason
                == WebSocketCloseReason(code: code, reason: "bye", initiator: .peer, wasClean: true))
        #expect(client.state == .closed)
        #expect(throws: WebSocketError.self) { try client.send(text: "too late") }
    }

    @Test("an empty close is answered with an empty close and reported as 1005")
    func emptyClose() throws {
        var server = makeSession(.server)
        let actions = server.receive(wire(.close(code: nil), from: .client), now: sessionStart)
        #expect(actions.first == .write([0x88, 0x00]))
        #expect(actions.closeReason?.code == 1005)
    }

    @Test("we close: the close frame goes out, nothing else does, and the peer's answer completes it")
    func localClose() throws {
        var client = makeSession(.client)
        let sent = try client.close(code: 1000, reason: "done", now: sessionStart)
        #expect(try writtenFrames(sent, by: .client) == [.close(code: 1000, reason: "done")])
        #expect(client.state == .closing)
        #expect(throws: WebSocketError.self) { try client.send(text: "after close") }
        #expect(try client.close(code: 1000, now: sessionStart).isEmpty)  // idempotent
        // While closing: data is still delivered, pings are not answered.
        #expect(
            client.receive(wire(.text("last"), from: .server), now: sessionStart) == [
                .deliver(.text("last"))
            ])
        #expect(client.receive(wire(.ping(), from: .server), now: sessionStart).isEmpty)
        let done = client.receive(wire(.close(code: 1000), from: .server), now: sessionStart)
        #expect(
            done == [
                .closeTransport(
                    WebSocketCloseReason(code: 1000, reason: "done", initiator: .local, wasClean: true))
            ])
    }

    @Test("a close the peer never answers times out")
    func closeTimeout() throws {
        var server = makeSession(.server, WebSocketConfiguration(closeTimeout: .seconds(3)))
        _ = try server.close(code: 1001, now: sessionStart)
        #expect(server.nextDeadline == sessionStart + .seconds(3))
        #expect(server.tick(now: sessionStart + .seconds(2)).isEmpty)
        let reason = server.tick(now: sessionStart + .seconds(3)).closeReason
        #expect(reason?.code == 1001 && reason?.wasClean == false && reason?.initiator == .local)
        #expect(server.nextDeadline == nil)
    }

    @Test(
        "codes that may not be sent are refused",
        arguments: [UInt16(0), 999, 1004, 1005, 1006, 1015, 2000, 5000])
    func invalidLocalCode(code: UInt16) {
        var client = makeSession(.client)
        #expect(throws: WebSocketError.self) { try client.close(code: code, now: sessionStart) }
        #expect(client.state == .open)
    }

    @Test("the transport ending without a close frame is reported as 1006")
    func transportEnded() {
        var client = makeSession(.client)
        let reason = client.transportEnded(error: nil).closeReason
        #expect(reason?.code == 1006 && reason?.initiator == .transport)
        #expect(client.transportEnded(error: "again").isEmpty)
    }
}
