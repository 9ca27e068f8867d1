import Net
import Support
import Wire

/// An MQTT 3.1.1 client: the `MQTTSession` state machine driven over a TCP or TLS connection.
///
/// `run()` keeps a connection up until the task is cancelled or `stop()` is called:
/// it connects, re-subscribes every filter after each (re)connect, sends PINGREQ when idle,
/// and after a failure waits `ReconnectBackoff` delays before trying again. Application
/// messages arrive on `messages`; connection changes on `states` (the bridge republishes
/// its retained topics on every `.connected`).
///
/// ```swift
/// let client = try MQTTClient(configuration: .init(host: "127.0.0.1", session: .init(clientID: "tv2mqtt")), logger: log)
/// async let running: Void = client.run()
/// try await client.subscribe("tv2mqtt/+/set/#")
/// try await client.publish("tv2mqtt/bridge/state", Array("online".utf8), qos: .atLeastOnce, retain: true)
/// ```
///
/// Outgoing packets are queued and written by one writer task that coalesces whatever has
/// accumulated into a single write, so bursts cost few system calls.
public actor MQTTClient {
    public nonisolated let configuration: MQTTClientConfiguration
    let logger: Logger
    var session: MQTTSession
    private let tlsContext: TLSContext?

    /// Every application message received, in order. One consumer.
    public nonisolated let messages: AsyncStream<MQTTMessage>
    let messageSink: AsyncStream<MQTTMessage>.Continuation
    /// Connection state changes. One consumer.
    public nonisolated let states: AsyncStream<MQTTConnectionState>
    let stateSink: AsyncStream<MQTTConnectionState>.Continuation
    public private(set) var state: MQTTConnectionState = .disconnected(reason: "not started")

    /// Filters to (re)subscribe on every connection, in the order they were added.
    var subscriptions: [MQTTSubscription] = []
    /// Callers waiting for an acknowledgement, by packet id.
    var waiters: [UInt16: Waiter] = [:]
    /// Which wait holds each id in `waiters`, so a late cancellation never ends a later
    /// operation that reuses the id.
    var waiterTokens: [UInt16: UInt64] = [:]
    var nextToken: UInt64 = 0

    // The current connection.
    var outbox: [UInt8] = []
    var writerWake: CheckedContinuation<Void, Never>?
    /// Publishers waiting for room in the outbox, by token (see `waitForRoom()`).
    var drainWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    /// Callers of `waitUntilConnected`, by token; resumed by `setState`, `stop()` or their timeout.
    var connectWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    var closeReason: MQTTSessionCloseReason?
    var acceptedThisConnection = false
    /// When CONNACK accepted the current connection; how long it lasted decides the backoff.
    var acceptedAt: ContinuousClock.Instant?
    var lastRefusal: MQTTConnectReturnCode?
    var stopping = false
    var stopWaiters: [CheckedContinuation<Void, Never>] = []
    var serving = false
    /// Cuts the reconnection delay short: `stop()` signals it.
    nonisolated let backoffWakeup = Wakeup()
    /// Cuts the keep-alive timer's wait short when the session's next deadline moves earlier
    /// (see `received(_:)`); `timerArmedUntil` is the deadline it waits for.
    nonisolated let timerWakeup = Wakeup()
    var timerArmedUntil: ContinuousClock.Instant?

    enum Waiter {
        case publish(CheckedContinuation<Result<Void, MQTTClientError>, Never>)
        case subscribe(CheckedContinuation<Result<[MQTTSubAckReturnCode], MQTTClientError>, Never>)
        case unsubscribe(CheckedContinuation<Result<Void, MQTTClientError>, Never>)
        /// The automatic re-subscription after a reconnect: nobody waits, failures are logged.
        case resubscribe([MQTTSubscription])
    }

    /// - Throws: `MQTTClientError.invalid` when the session configuration cannot make a valid
    ///   CONNECT, `NetError` when TLS files cannot be loaded.
    public init(configuration: MQTTClientConfiguration, logger: Logger) throws {
        self.configuration = configuration
        self.logger = logger
        do {
            session = try MQTTSession(configuration: configuration.session)
        } catch {
            throw MQTTClientError.invalid(error.description)
        }
        tlsContext = try configuration.tls.map { try TLSContext.client($0) }
        (messages, messageSink) = AsyncStream.makeStream(of: MQTTMessage.self)
        (states, stateSink) = AsyncStream.makeStream(
            of: MQTTConnectionState.self, bufferingPolicy: .bufferingNewest(64))
    }

    public var isConnected: Bool { session.isConnected }

    /// Bytes queued for the writer and not yet taken by it.
    public var queuedByteCount: Int { outbox.count }

    /// Keeps the client connected until `stop()` is called or the task is cancelled.
    public func run() async {
        var attempt = 0
        while !stopping && !Task.isCancelled {
            setState(.connecting)
            // Reset here, not only in serve(): a failed connect must not be logged as "lost", or
            // at error level, because of how the connection before it went.
            acceptedThisConnection = false
            acceptedAt = nil
            lastRefusal = nil
            var reason: String
            do {
                let stream = try await openStream()
                // stop() may have come while connecting, when there was nothing to disconnect:
                // close without sending CONNECT rather than start a session nobody will end.
                if stopping || Task.isCancelled {
                    stream.close()
                    break
                }
                reason = await serve(stream)
            } catch {
                reason = "\(error)"
            }
            if stopping || Task.isCancelled { break }
            setState(.disconnected(reason: reason))
            // Back to the shortest delay only after a connection that lasted: one dropped
            // right after CONNACK (by the broker, or by us over something it sends on every
            // connection) would otherwise be retried every second for ever.
            if configuration.backoff.resets(
                afterConnectedFor: acceptedAt.map { LoopClock.current.now - $0 })
            {
                attempt = 0
            }
            let delay = configuration.backoff.delay(attempt: attempt, unit: Double.random(in: 0..<1))
            attempt += 1
            let level: LogLevel = lastRefusal != nil || attempt > 3 ? .error : .warning
            logger.log(
                level,
                "MQTT connection to \(configuration.serverDescription) \(acceptedThisConnection ? "lost" : "failed"): \(reason); retrying in \(delay.shortDescription)"
            )
            await sleepUnlessStopped(for: delay)
        }
        finishStopping()
    }

    /// The reconnection delay, cut short by `stop()` (or cancellation): with delays of up to
    /// 60 s, a plain sleep would hold `run()` — and a shutting-down bridge — for that long.
    private func sleepUnlessStopped(for delay: Duration) async {
        guard !stopping else { return }
        _ = await backoffWakeup.wait(timeout: delay)
    }

    /// Disconnects cleanly (DISCONNECT first, so the broker discards the will) and ends `run()`.
    public func stop() async {
        guard !stopping else { return }
        stopping = true
        endConnectWaits()
        backoffWakeup.signal()
        guard serving else { return }
        perform(session.disconnect())
        if closeReason == nil { closeReason = .disconnectRequested }
        wakeWriter()
        await withCheckedContinuation { stopWaiters.append($0) }
    }

    private func openStream() async throws -> any ByteStream {
        let tcp = try await TCPConnection.connect(
            host: configuration.host, port: configuration.port, timeout: configuration.connectTimeout)
        guard let tlsContext else { return tcp }
        return try await TLSConnection.connect(
            over: tcp, context: tlsContext, serverName: configuration.host,
            deadline: LoopClock.current.now + configuration.connectTimeout)
    }

    func setState(_ newState: MQTTConnectionState) {
        guard newState != state else { return }
        state = newState
        stateSink.yield(newState)
        switch newState {
        case .connected, .stopped: endConnectWaits()
        case .connecting, .disconnected: break
        }
    }

    private func finishStopping() {
        for id in session.abandonOutstanding() {
            fail(waiter: waiters.removeValue(forKey: id), .stopped)
        }
        for waiter in waiters.values { fail(waiter: waiter, .stopped) }
        waiters.removeAll()
        setState(.stopped)
        messageSink.finish()
        stateSink.finish()
    }

    func fail(waiter: Waiter?, _ error: MQTTClientError) {
        switch waiter {
        case .publish(let continuation): continuation.resume(returning: .failure(error))
        case .subscribe(let continuation): continuation.resume(returning: .failure(error))
        case .unsubscribe(let continuation): continuation.resume(returning: .failure(error))
        case .resubscribe, nil: break
        }
    }
}

extension Duration {
    /// "1.2 s", "250 ms".
    var shortDescription: String {
        let millis = wholeMilliseconds
        return millis >= 1000 ? "\(Double(millis / 100) / 10) s" : "\(millis) ms"
    }
}
