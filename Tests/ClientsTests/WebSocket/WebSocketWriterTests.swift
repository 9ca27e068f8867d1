import Clients
import Net
import Synchronization
import Testing

/// Who writes a connection's outbox: a sender that finds no write in progress writes its own
/// frame on its own task (no hand-over to a writer task on the way to the socket); frames the
/// connection queues itself (a pong) are written by a task it starts.
@Suite("WebSocket writer: who writes the outbox")
struct WebSocketWriterTests {
    /// The task a write ran on, told apart by a task-local label (tasks the connection starts
    /// itself do not inherit the sender's).
    enum Writer {
        @TaskLocal static var label: String?
    }

    /// A real TCP stream that records, for each write, the label of the task that made it.
    final class RecordingStream: ByteStream {
        let inner: any ByteStream
        let writers = Mutex<[(label: String?, bytes: Int)]>([])

        init(_ inner: any ByteStream) { self.inner = inner }

        func read(maxBytes: Int, deadline: ContinuousClock.Instant?) async throws -> [UInt8] {
            try await inner.read(maxBytes: maxBytes, deadline: deadline)
        }

        func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant?) async throws {
            let label = Writer.label
            writers.withLock { $0.append((label, bytes.count)) }
            try await inner.write(bytes, deadline: deadline)
        }

        func close() { inner.close() }
        var isClosed: Bool { inner.isClosed }
        var peerDescription: String { inner.peerDescription }
    }

    /// Our server side over a recording stream, and a client connected to it.
    private func connectedPair() async throws -> (
        server: WebSocketConnection, stream: RecordingStream, client: WebSocketConnection
    ) {
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        async let client = WebSocketClient.connect(
            url: "ws://127.0.0.1:\(listener.address.port)/", connectTimeout: .seconds(30),
            handshakeTimeout: .seconds(30))
        let stream = RecordingStream(try await listener.accept(deadline: .now + .seconds(10)))
        let server = try await WebSocketServerHandshake.accept(stream: stream, timeout: .seconds(30))
        return (server.connection, stream, try await client.connection)
    }

    @Test("a send on an idle connection is written by the sender's own task")
    func senderWrites() async throws {
        let (server, stream, client) = try await connectedPair()
        try await within {
            try await Writer.$label.withValue("sender") { try await server.send(text: "hello") }
            var events = client.incoming.makeAsyncIterator()
            #expect(await events.next() == .text("hello"))
            let last = stream.writers.withLock { $0.last }
            #expect(last?.label == "sender", "the frame went through another task: \(String(describing: last))")
            try await client.close()
        }
    }

    @Test("a pong the connection owes is written by a task it starts, with no sender about")
    func pongWritten() async throws {
        let (server, stream, client) = try await connectedPair()
        try await within {
            let before = stream.writers.withLock { $0.count }
            try await Writer.$label.withValue("pinger") { try await client.ping([1, 2, 3]) }
            // The server's only write now is the pong its reader queued.
            var pong: (label: String?, bytes: Int)?
            while pong == nil {
                pong = stream.writers.withLock { $0.count > before ? $0[before] : nil }
                if pong == nil { try await Task.sleep(for: .milliseconds(5)) }
            }
            #expect(pong?.label == nil)
            #expect(pong?.bytes == 2 + 3, "a pong frame: 2 header bytes and the ping's 3")
            _ = server
            try await client.close()
        }
    }

    @Test("50 senders at once: every frame arrives whole, each exactly once")
    func concurrentSenders() async throws {
        let (server, _, client) = try await connectedPair()
        try await within {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        try await Writer.$label.withValue("sender \(index)") {
                            try await server.send(text: "message \(index)")
                        }
                    }
                }
                try await group.waitForAll()
            }
            var received: Set<String> = []
            var events = client.incoming.makeAsyncIterator()
            while received.count < 50, case .text(let text)? = await events.next() { received.insert(text) }
            let sent = Set((0..<50).map { "message \($0)" })
            #expect(received == sent)
            try await client.close()
        }
    }
}
