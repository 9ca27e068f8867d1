/// The messages a `WebSocketConnection` received, in order, ending with one `.closed`.
///
/// Unlike an `AsyncStream`, it pushes back: while more than
/// `WebSocketConfiguration.maxBufferedIncomingBytes` wait unread, the connection stops reading
/// the socket, so a peer that sends faster than the application consumes fills TCP buffers,
/// not our memory. One consumer at a time; a second concurrent `next()` gets `nil`.
public struct WebSocketIncomingSequence: AsyncSequence, Sendable {
    public typealias Element = WebSocketIncoming
    let connection: WebSocketConnection

    public struct AsyncIterator: AsyncIteratorProtocol {
        let connection: WebSocketConnection

        /// The next message, or `nil` after `.closed` (or when the consuming task is cancelled).
        public mutating func next() async -> WebSocketIncoming? {
            await connection.nextIncoming()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(connection: connection)
    }
}

/// Received messages not yet taken by the application, and how many bytes they hold.
struct WebSocketInbox: Sendable {
    let limit: Int
    private var queue: [WebSocketIncoming] = []
    private var head = 0
    private(set) var bufferedBytes = 0
    /// Whether `.closed` has been handed out: every later `next()` returns `nil`.
    private(set) var isFinished = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether the reader should wait for the application before reading more.
    var isFull: Bool { bufferedBytes >= limit }
    var isEmpty: Bool { head == queue.count }

    mutating func push(_ message: WebSocketIncoming) {
        queue.append(message)
        bufferedBytes += Self.size(of: message)
    }

    mutating func pop() -> WebSocketIncoming? {
        guard head < queue.count else { return nil }
        let message = queue[head]
        head += 1
        bufferedBytes -= Self.size(of: message)
        if head == queue.count {
            queue.removeAll(keepingCapacity: queue.capacity <= 256)
            head = 0
        } else if head >= 64 && head * 2 >= queue.count {
            queue.removeFirst(head)  // amortised: the consumed prefix is at least half the array
            head = 0
        }
        noteHandedOut(message)
        return message
    }

    /// A message went to a waiting consumer directly, or through `pop()`.
    mutating func noteHandedOut(_ message: WebSocketIncoming) {
        if case .closed = message { isFinished = true }
    }

    /// Payload bytes, plus a fixed cost so a flood of empty messages also counts.
    private static func size(of message: WebSocketIncoming) -> Int {
        switch message {
        case .text(let text): 64 + text.utf8.count
        case .binary(let bytes): 64 + bytes.count
        case .closed: 64
        }
    }
}
