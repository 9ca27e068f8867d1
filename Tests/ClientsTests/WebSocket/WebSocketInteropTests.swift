import Clients
import Glibc
import Harness
import TestSupport
import Testing
import Wire

/// Whether Python's `websockets` package (an independent RFC 6455 implementation) is importable.
/// `Tests/install-deps.sh` tries to install it; without it these tests are skipped, saying so.
private func pythonWebsocketsAvailable() async -> Bool {
    guard
        let result = try? await ChildProcess.run("python3", ["-c", "import websockets.asyncio.server"])
    else {
        return false
    }
    return result.status.isSuccess
}

/// `Tests/ClientsTests/WebSocket/Interop/ws_peer.py`, found next to this file.
private let peerScript: String = {
    let file = #filePath
    return String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)]) + "/Interop/ws_peer.py"
}()

@Suite(
    "WebSocket interop with Python's websockets package",
    .enabled(
        "Python's websockets package is not importable (python3 -m pip install websockets, or Tests/install-deps.sh)",
        { await pythonWebsocketsAvailable() }))
struct WebSocketInteropTests {
    @Test("our client against their server: subprotocol, echoes, order, both close handshakes")
    func ourClientTheirServer() async throws {
        let server = try await ChildProcess.spawn(
            "python3", [peerScript, "server"], stdout: .capture, stderr: .capture)
        defer { server.kill() }
        let port = try await within { () async throws -> UInt16 in
            while true {
                let output = server.capturedOutput()
                if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("port ") }),
                    let port = UInt16(line.dropFirst(5))
                {
                    return port
                }
                guard server.isRunning else {
                    throw WebSocketError(.connect, "ws_peer.py server exited: \(server.capturedError())")
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        try await within {
            let url = "ws://127.0.0.1:\(port)/ecp-session"
            let connected = try await WebSocketClient.connect(
                url: url, subprotocols: ["ecp-2"], connectTimeout: .seconds(30), handshakeTimeout: .seconds(30))
            #expect(connected.subprotocol == "ecp-2")
            let ws = connected.connection
            var events = ws.incoming.makeAsyncIterator()
            try await ws.send(text: "héllo ✓")
            #expect(await events.next() == .text("héllo ✓"))
            let big = try await offTheLoop { (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) } }
            try await ws.send(binary: big)
            let echoed = await events.next() == .binary(big)  // not in #expect: a failure would print 1 MiB
            #expect(echoed)
            for index in 0..<100 { try await ws.send(text: "message \(index)") }
            var received: [WebSocketIncoming] = []
            while received.count < 100, let event = await events.next() { received.append(event) }
            let expectedTexts: [WebSocketIncoming] = (0..<100).map { .text("message \($0)") }
            #expect(received == expectedTexts)
            try await ws.ping([1, 2, 3])
            let reason = try await ws.close(code: 1000, reason: "swift done")
            #expect(
                reason
                    == WebSocketCloseReason(
                        code: 1000, reason: "swift done", initiator: .local, wasClean: true))

            // Their server closes: we see its code and reason.
            let second = try await WebSocketClient.connect(
                url: url, subprotocols: ["ecp-2"], connectTimeout: .seconds(30), handshakeTimeout: .seconds(30)
            ).connection
            try await second.send(text: "close 4001 bye from python")
            let (messages, closed) = await collect(second)
            #expect(messages.isEmpty)
            #expect(
                closed
                    == WebSocketCloseReason(
                        code: 4001, reason: "bye from python", initiator: .peer, wasClean: true))
        }
    }

    @Test("their client against our server")
    func theirClientOurServer() async throws {
        let server = try LoopbackServer.echo(subprotocols: ["ecp-2"])
        defer { server.stop() }
        let result = try await ChildProcess.run(
            "python3", [peerScript, "client", "\(server.port)"], timeout: .seconds(30))
        #expect(result.status.isSuccess, "ws_peer.py client: \(result.error)")
        #expect(result.output.contains("ok"))
    }
}
