import Net
import Support
import Wire

/// One WebSocket connection, either role, over any `ByteStream` (TCP, or TLS over TCP).
///
/// The `WebSocketSession` state machine, driven by this actor: a reader loop that feeds it what
/// the transport delivers, one outbox written in order (so a pong or a close can never land
/// inside another frame, and a burst of sends costs few writes), and a timer for keepalive and
/// the close handshake. A sender that finds no write in progress writes the outbox on its own
/// task; frames queued otherwise (a pong, a close) get a task that writes while there are any.
/// Every wait is a suspension on the event loop; nothing blocks a thread.
///
/// ```swift
/// let ws = WebSocketConnection(stream: tcp, role: .server, leftover: parser.takeRemainingBytes())
/// for await event in ws.incoming {
///     switch event {
///     case .text(let text): try await ws.send(text: text)
///     case .binary(let bytes): try await ws.send(binary: bytes)
///     case .closed(let reason): print(reason)
///     }
/// }
/// ```
///
/// The connection keeps itself alive until it is closed: by `close(code:reason:)`, by the peer,
/// by a protocol violation, by the keepalive, or by the transport ending.
public actor WebSocketConnection {
    public nonisolated let role: WebSocketRole
    /// "127.0.0.2:8060", for log lines.
    public nonisolated let peerDescription: String
    /// Data messages in order, then exactly one `.closed` with how the connection ended. One consumer.
    public nonisolated var incoming: WebSocketIncomingSequence {
        WebSocketIncomingSequence(connection: self)
    }
    private let stream: any ByteStream
    private let configuration: WebSocketConfiguration
    private var session: WebSocketSession

    // The writer: bytes ever queued and ever written, so a sender can wait for its own frame.
    private var outbox: [UInt8] = []
    private var queuedTotal = 0
    private var writtenTotal = 0
    /// Someone is writing the outbox (`writeOutbox`); nobody else may.
    private var isWriting = false
    /// A sender is queuing its frame and will write the outbox itself.
    private var senderWillWrite = false
    private var transportClosed = false
    private var writeWaiters: [(mark: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    private var writeFailure: WebSocketError?

    // Received messages the application has not taken yet; the reader waits while it is full.
    private var inbox: WebSocketInbox
    private var consumer: CheckedContinuation<WebSocketIncoming?, Never>?
    private var readerWake: CheckedContinuation<Void, Never>?

    // The end.
    private var endReason: WebSocketCloseReason?
    private var endWaiters: [CheckedContinuation<WebSocketCloseReason, Never>] = []

    // The timer: one current loop timer, replaced when the next deadline moves earlier.
    private var timerArmedUntil: ContinuousClock.Instant?
    private var timerGeneration = 0

    /// Starts a connection whose opening handshake is done.
    ///
    /// - Parameters:
    ///   - leftover: bytes that arrived with the handshake (after the 101 response or the
    ///     upgrade request): they are the start of the first frames.
    public init(
        stream: any ByteStream, role: WebSocketRole, leftover: [UInt8] = [],
        configuration: WebSocketConfiguration = WebSocketConfiguration()
    ) {
        self.stream = stream
        self.role = role
        self.configuration = configuration
        peerDescription = stream.peerDescription
        session = WebSocketSession(
            role: role, configuration: configuration, now: LoopClock.current.now,
            randomBytes: { SecureRandom.bytes($0) })
        inbox = WebSocketInbox(limit: configuration.maxBufferedIncomingBytes)
        Task { await self.start(leftover: leftover) }
    }

    private func start(leftover: [UInt8]) {
        if !leftover.isEmpty { perform(session.receive(leftover, now: LoopClock.current.now)) }
        Task { await self.readLoop() }
        rearmTimer()
    }

    // MARK: The application's side

    /// Sends a text message and returns once it is handed to the transport.
    public func send(text: String) async throws(WebSocketError) {
        try await perform(sending: session.send(text: text))
    }

    /// Sends a binary message and returns once it is handed to the transport.
    public func send(binary: [UInt8]) async throws(WebSocketError) {
        try await perform(sending: session.send(binary: binary))
    }

    /// Sends one frame as given: fragments of a message (`fin: false`, then `.continuation`), a
    /// ping or an unsolicited pong. For tests and simulators that need unusual framing.
    public func send(frame: WebSocketFrame) async throws(WebSocketError) {
        try await perform(sending: session.send(frame: frame))
    }

    /// Sends a ping. The pong, like any traffic, keeps the keepalive satisfied.
    public func ping(_ payload: [UInt8] = []) async throws(WebSocketError) {
        try await perform(sending: session.ping(payload))
    }

    /// Closes with the handshake of RFC 6455 §7.1.2 and returns how the connection ended: after
    /// the peer's close frame, or after `closeTimeout` without one. Once closing, it just waits.
    ///
    /// - Throws: `.invalidArgument` for a code that may not be sent (1005, 1006, 1015, reserved).
    @discardableResult
    public func close(code: UInt16? = WebSocketCloseCode.normalClosure, reason: String = "")
        async throws(WebSocketError)
        -> WebSocketCloseReason
    {
        perform(try session.close(code: code, reason: reason, now: LoopClock.current.now))
        return await closed()
    }

    /// Waits until the connection has ended and says how.
    public func closed() async -> WebSocketCloseReason {
        if let endReason { return endReason }
        return await withCheckedContinuation { endWaiters.append($0) }
    }

    /// How the connection ended, or `nil` while it is open or closing.
    public var closeReason: WebSocketCloseReason? { endReason }

    /// Bytes received and not yet taken from `incoming` (bounded by `maxBufferedIncomingBytes`
    /// plus at most one read's worth of messages).
    public var bufferedIncomingBytes: Int { inbox.bufferedBytes }

    private func perform(sending actions: [WebSocketSessionAction]) async throws(WebSocketError) {
        if let writeFailure { throw writeFailure }
        senderWillWrite = true
        perform(actions)
        senderWillWrite = false
        Trace.mark(.encoded)
        let mark = queuedTotal
        if !isWriting {
            isWriting = true
            await writeOutbox()
        }
        guard writtenTotal < mark else { return }
        if let writeFailure { throw writeFailure }
        do {
            try await withCheckedThrowingContinuation { writeWaiters.append((mark, $0)) }
        } catch let error as WebSocketError {
            throw error
        } catch {
            throw WebSocketError(.closed, "\(error)")
        }
    }

    // MARK: Actions

    private func perform(_ actions: [WebSocketSessionAction]) {
        for action in actions {
            switch action {
            case .write(let bytes):
                outbox.append(contentsOf: bytes)
                queuedTotal += bytes.count
                wakeWriter()
            case .deliver(let message):
                // After our close frame the reader must keep going to find the peer's, so a full
                // inbox drops late data instead of pausing: the application asked to leave.
                if session.state == .closing && inbox.isFull && consumer == nil { continue }
                deliver(message)
            case .closeTransport(let reason):
                end(reason)
            }
        }
        // A reader paused by a full inbox must resume once we close: the peer's close frame is
        // behind the data it waits on.
        if session.state != .open {
            readerWake?.resume()
            readerWake = nil
        }
        rearmTimer()
    }

    private func end(_ reason: WebSocketCloseReason) {
        guard endReason == nil else { return }
        endReason = reason
        deliver(.closed(reason))
        for waiter in endWaiters { waiter.resume(returning: reason) }
        endWaiters = []
        // The writer flushes what is queued (the close frame) and then closes the transport.
        wakeWriter()
    }

    private func deliver(_ message: WebSocketIncoming) {
        guard let consumer else { return inbox.push(message) }
        self.consumer = nil
        inbox.noteHandedOut(message)
        consumer.resume(returning: message)
    }

    /// The application's `next()`: a buffered message, or a wait for the next one.
    func nextIncoming() async -> WebSocketIncoming? {
        if let message = inbox.pop() {
            if !inbox.isFull {
                readerWake?.resume()
                readerWake = nil
            }
            return message
        }
        guard !inbox.isFinished, consumer == nil, !Task.isCancelled else { return nil }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { consumer = $0 }
        } onCancel: {
            Task { await self.cancelConsumer() }
        }
    }

    private func cancelConsumer() {
        consumer?.resume(returning: nil)
        consumer = nil
    }

    /// Frames were queued, or the connection ended: a task writes them (and then closes the
    /// transport) unless someone is writing, or a sender is about to.
    private func wakeWriter() {
        guard !isWriting, !senderWillWrite else { return }
        isWriting = true
        Task { await self.writeOutbox() }
    }

    // MARK: The loops

    private func readLoop() async {
        while session.state != .closed {
            if inbox.isFull && session.state == .open {
                // Back-pressure: the peer's bytes wait in the socket until the application catches up.
                await withCheckedContinuation { readerWake = $0 }
                continue
            }
            do {
                let bytes = try await stream.read(maxBytes: 64 * 1024, deadline: nil)
                if bytes.isEmpty {
                    perform(session.transportEnded(error: nil))
                } else {
                    perform(session.receive(bytes, now: LoopClock.current.now))
                }
            } catch {
                perform(session.transportEnded(error: "\(error)"))
            }
        }
    }

    /// Writes the outbox until it is empty, then closes the transport if the connection has
    /// ended. Called only by whoever set `isWriting`.
    private func writeOutbox() async {
        while !outbox.isEmpty, writeFailure == nil {
            let chunk = outbox
            outbox = []
            do {
                try await stream.write(chunk, deadline: LoopClock.current.now + configuration.writeTimeout)
                writtenTotal += chunk.count
                resumeWriteWaiters()
            } catch {
                writeFailure = WebSocketError(.closed, "write to \(peerDescription) failed: \(error)")
                perform(session.transportEnded(error: "\(error)"))
            }
        }
        isWriting = false
        if endReason != nil || writeFailure != nil { closeTransport() }
    }

    private func closeTransport() {
        guard !transportClosed else { return }
        transportClosed = true
        stream.close()
        // Anything still queued will never be written.
        writeFailure = writeFailure ?? WebSocketError(.closed, "the WebSocket connection is closed")
        resumeWriteWaiters()
    }

    private func resumeWriteWaiters() {
        var pending: [(mark: Int, continuation: CheckedContinuation<Void, any Error>)] = []
        for waiter in writeWaiters {
            if waiter.mark <= writtenTotal {
                waiter.continuation.resume()
            } else if let writeFailure {
                waiter.continuation.resume(throwing: writeFailure)
            } else {
                pending.append(waiter)
            }
        }
        writeWaiters = pending
    }

    /// Keeps one loop timer armed for the session's next deadline; a timer that is no longer
    /// the current one (`timerGeneration`) does nothing when it fires.
    private func rearmTimer() {
        guard let deadline = session.nextDeadline else {
            timerGeneration += 1
            timerArmedUntil = nil
            return
        }
        // A timer due earlier re-reads the deadline when it fires: nothing to change.
        if let armed = timerArmedUntil, armed <= deadline { return }
        timerGeneration += 1
        let generation = timerGeneration
        timerArmedUntil = deadline
        // Weak: a timer must not keep a connection its owner has let go of alive until it is due.
        LoopClock.current.startTask(at: deadline) { [weak self] in await self?.timerFired(generation) }
    }

    private func timerFired(_ generation: Int) {
        guard generation == timerGeneration else { return }
        timerArmedUntil = nil
        perform(session.tick(now: LoopClock.current.now))
    }
}
