import Clients
import Net
import Wire

/// A loopback listener that runs `handler` for every connection (TLS-wrapped when given a context).
struct LoopbackServer: Sendable {
    let listener: TCPListener
    let task: Task<Void, Never>

    var port: UInt16 { listener.address.port }
    var wsURL: String { "ws://127.0.0.1:\(port)/ecp-session" }

    static func start(
        tls: TLSContext? = nil, _ handler: @escaping @Sendable (any ByteStream) async -> Void
    ) throws -> LoopbackServer {
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                while let connection = try? await listener.accept() {
                    group.addTask {
                        if let tls {
                            guard let secure = try? await TLSConnection.accept(over: connection, context: tls)
                            else { return }
                            await handler(secure)
                        } else {
                            await handler(connection)
                        }
                    }
                }
                group.cancelAll()
            }
        }
        return LoopbackServer(listener: listener, task: task)
    }

    /// A WebSocket echo server on our own server handshake. A text "close <code> <reason>"
    /// makes it close with that code instead of echoing.
    static func echo(subprotocols: [String] = ["ecp-2"], tls: TLSContext? = nil) throws
        -> LoopbackServer
    {
        try start(tls: tls) { stream in
            guard
                let accepted = try? await WebSocketServerHandshake.accept(
                    stream: stream, subprotocols: subprotocols, timeout: .seconds(30))
            else { return }
            let ws = accepted.connection
            for await event in ws.incoming {
                switch event {
                case .text(let text) where text.hasPrefix("close "):
                    let parts = text.split(separator: " ", maxSplits: 2)
                    _ = try? await ws.close(
                        code: UInt16(parts[1]) ?? 1000, reason: parts.count > 2 ? String(parts[2]) : "")
                case .text(let text): try? await ws.send(text: text)
                case .binary(let bytes): try? await ws.send(binary: bytes)
                case .closed: return
                }
            }
        }
    }

    /// A server that reads the upgrade request and answers with `answer(key)` as raw bytes, then
    /// does whatever `after` says with the stream (by default: keeps it open until the client goes).
    static func scripted(
        answer: @escaping @Sendable (_ key: String) -> [UInt8],
        after: @escaping @Sendable (any ByteStream) async -> Void = { stream in
            while let bytes = try? await stream.read(), !bytes.isEmpty {}
        }
    ) throws -> LoopbackServer {
        try start { stream in
            var parser = HTTPRequestParser()
            var request: HTTPRequest?
            while request == nil, let bytes = try? await stream.read(), !bytes.isEmpty {
                parser.append(bytes)
                request = try? parser.next()
            }
            guard let request else { return stream.close() }
            try? await stream.write(answer(request.headers["Sec-WebSocket-Key"] ?? ""))
            await after(stream)
            stream.close()
        }
    }

    func stop() {
        listener.close()
        task.cancel()
    }
}

/// A correct 101 answer for `key`, optionally followed by bytes in the same write.
func switchingProtocols(key: String, subprotocol: String? = nil, accept: String? = nil) -> [UInt8] {
    var text = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    text += "Sec-WebSocket-Accept: \(accept ?? WebSocketKey.accept(for: key, sha1: Digest.sha1))\r\n"
    if let subprotocol { text += "Sec-WebSocket-Protocol: \(subprotocol)\r\n" }
    return Array((text + "\r\n").utf8)
}

/// Collects a connection's events until it closes.
func collect(_ connection: WebSocketConnection) async -> (
    messages: [WebSocketIncoming], closed: WebSocketCloseReason?
) {
    var messages: [WebSocketIncoming] = []
    for await event in connection.incoming {
        if case .closed(let reason) = event { return (messages, reason) }
        messages.append(event)
    }
    return (messages, nil)
}

/// Fails the test instead of hanging when `body` takes longer than `seconds`: a hang bound,
/// 60 s unless a test moves megabytes.
func within<T: Sendable>(
    _ seconds: Int = 60, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        guard let first = try await group.next(), let value = first else {
            group.cancelAll()
            throw WebSocketError(.timeout, "the test did not finish within \(seconds) s")
        }
        group.cancelAll()
        return value
    }
}
