import Clients
import Harness
import Net
import Support
import Synchronization
import Testing
import Wire

/// A thread-safe, append-only list: what a background task observed, read by the test.
final class Recorder<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    func append(_ item: Element) { items.withLock { $0.append(item) } }
    var all: [Element] { items.withLock { $0 } }
}

/// A `MQTTClient` whose `run()` goes on in the background, with every state change (and when
/// it happened), every message and every log line recorded for the test to inspect.
///
/// Given a `ManualClock`, the client runs under it (its keep-alive, backoff and timeouts move
/// only when the test advances it), and so do `stop()`, `cancel()` and `call(_:)`: a call reads
/// the clock of the calling task. The test's own code, and the fake broker, keep real time.
final class RunningClient: Sendable {
    let client: MQTTClient
    /// The clock the client runs under (`LoopClock.system` unless a manual clock was given).
    let clock: LoopClock
    let log: CapturingSink
    let stateLog: Recorder<(at: ContinuousClock.Instant, state: MQTTConnectionState)>
    let messageLog: Recorder<MQTTMessage>
    private let runTask: Task<Void, Never>
    private let runEnded: Recorder<Bool>

    init(_ configuration: MQTTClientConfiguration, clock manual: ManualClock? = nil) throws {
        let clock = manual?.clock ?? LoopClock.current
        self.clock = clock
        let log = CapturingSink()
        let client = try MQTTClient(
            configuration: configuration,
            logger: Logger(label: "mqtt", sink: log, threshold: LogThreshold(.debug)))
        let stateLog = Recorder<(at: ContinuousClock.Instant, state: MQTTConnectionState)>()
        let messageLog = Recorder<MQTTMessage>()
        self.stateLog = stateLog
        self.messageLog = messageLog
        Task { for await state in client.states { stateLog.append((clock.now, state)) } }
        Task { for await message in client.messages { messageLog.append(message) } }
        let ended = Recorder<Bool>()
        self.runEnded = ended
        self.log = log
        self.client = client
        runTask = Task {
            await clock.run { await client.run() }
            ended.append(true)
        }
    }

    /// Calls into the client under its clock: `publish` and the like read the caller's clock.
    func call<T: Sendable>(_ body: @Sendable (MQTTClient) async throws -> T) async rethrows -> T {
        let client = self.client
        return try await clock.run { try await body(client) }
    }

    var states: [MQTTConnectionState] { stateLog.all.map(\.state) }
    var messages: [MQTTMessage] { messageLog.all }
    var hasEnded: Bool { !runEnded.all.isEmpty }

    /// The reasons of every `.disconnected` state so far, in order.
    var disconnectReasons: [String] {
        states.compactMap { if case .disconnected(let reason) = $0 { reason } else { nil } }
    }

    /// How many times the client reached `.connected`.
    var connectionCount: Int {
        states.count { if case .connected = $0 { true } else { false } }
    }

    /// Waits until `condition` holds for the recorded states.
    func waitForStates(
        timeout: Duration = .seconds(10), _ condition: @escaping ([MQTTConnectionState]) -> Bool
    ) async -> Bool {
        await waitUntil(timeout: timeout) { condition(states) }
    }

    /// Waits until the client has been connected `count` times in all.
    func waitForConnection(count: Int = 1, timeout: Duration = .seconds(10)) async -> Bool {
        await waitUntil(timeout: timeout) { connectionCount >= count }
    }

    /// Waits until a disconnect reason contains `text`; returns that reason.
    func waitForDisconnect(containing text: String, timeout: Duration = .seconds(10)) async -> String? {
        _ = await waitUntil(timeout: timeout) { disconnectReasons.contains { $0.contains(text) } }
        return disconnectReasons.first { $0.contains(text) }
    }

    /// Waits until at least `count` messages arrived; returns all of them.
    func waitForMessages(count: Int, timeout: Duration = .seconds(10)) async -> [MQTTMessage] {
        _ = await waitUntil(timeout: timeout) { messages.count >= count }
        return messages
    }

    /// Stops the client (DISCONNECT) and waits for `run()` to end; a `run()` still going after
    /// `limit` is a failure (and is cancelled, so the test does not hang).
    func stop(limit: Duration = .seconds(10)) async {
        let client = self.client
        // `stop()` itself must not hang either: bound it from the outside.
        let stopper = Task { [clock] in await clock.run { await client.stop() } }
        await ensureEnded(within: limit, what: "run() after stop()")
        stopper.cancel()
    }

    /// Cancels the task running `run()` and waits (at most `limit`) for it to end.
    func cancel(limit: Duration = .seconds(10)) async {
        runTask.cancel()
        await ensureEnded(within: limit, what: "run() after cancellation")
    }

    /// Waits for `run()` to end; records an issue and cancels it when it does not in time.
    func ensureEnded(
        within limit: Duration, what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let ended = await waitUntil(timeout: limit, interval: .milliseconds(10)) { hasEnded }
        if !ended {
            Issue.record("\(what) did not end within \(limit)", sourceLocation: sourceLocation)
            runTask.cancel()
        }
    }

    /// The captured log, one line per record.
    var logLines: [String] { log.lines }
}

/// Runs `body` with a started client and stops the client afterwards, also when `body` throws.
func withClient<T>(
    _ configuration: MQTTClientConfiguration, clock: ManualClock? = nil,
    isolation: isolated (any Actor)? = #isolation, _ body: (RunningClient) async throws -> T
) async throws -> T {
    let running = try RunningClient(configuration, clock: clock)
    do {
        let result = try await body(running)
        await running.stop()
        return result
    } catch {
        await running.stop()
        throw error
    }
}

/// Configurations for tests: loopback, fast reconnection, unique client ids.
enum TestMQTT {
    /// Reconnects within a fraction of a second, so tests stay fast.
    static let fastBackoff = ReconnectBackoff(
        initial: .milliseconds(100), maximum: .milliseconds(400), jitter: 0.2)

    /// A client id no other test uses (mosquitto's log is searched by client id).
    static func clientID(_ prefix: String) -> String {
        "\(prefix)-\(UInt32.random(in: 0...UInt32.max))"
    }

    static func configuration(
        port: UInt16, host: String = "127.0.0.1", session: MQTTSessionConfiguration,
        tls: TLSConfiguration? = nil,
        backoff: ReconnectBackoff = fastBackoff, maxPacketSize: Int = 1 << 20,
        connectTimeout: Duration = .seconds(3)
    ) -> MQTTClientConfiguration {
        MQTTClientConfiguration(
            host: host, port: port, tls: tls, session: session, connectTimeout: connectTimeout,
            backoff: backoff,
            maxPacketSize: maxPacketSize)
    }

    /// How many lines of mosquitto's log contain `text`.
    static func count(_ text: String, in broker: MosquittoBroker) -> Int {
        broker.logText().split(separator: "\n").count { $0.contains(text) }
    }
}

/// A `mosquitto_sub` that prints `QoS retain topic payload` per message (`-F "%q %r %t %p"`), so
/// a test sees with which QoS and retain flag the broker delivered each message.
final class FormattedSubscriber: Sendable {
    let process: ChildProcess
    let clientID: String
    private let outputPath: String
    private let directory: TemporaryDirectory

    init(broker: MosquittoBroker, topics: [String], qos: Int = 2) async throws {
        directory = try TemporaryDirectory(prefix: "mqtt-sub")
        outputPath = directory.file("out.txt")
        clientID = TestMQTT.clientID("sub")
        let arguments =
            [
                "-h", broker.host, "-p", String(broker.port), "-i", clientID, "-q", String(qos), "-F",
                "%q %r %t %p",
            ]
            + topics.flatMap { ["-t", $0] }
        process = try await ChildProcess.spawn(
            "mosquitto_sub", arguments, stdout: .file(outputPath), stderr: .capture)
    }

    /// Complete lines so far.
    func lines() -> [String] {
        var parts = (FileText.read(outputPath) ?? "").split(
            separator: "\n", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.map(String.init)
    }

    func waitForLines(count: Int, timeout: Duration = .seconds(10)) async -> [String] {
        _ = await waitUntil(timeout: timeout) { lines().count >= count }
        return lines()
    }

    func waitUntilSubscribed(on broker: MosquittoBroker) async throws {
        guard await broker.waitUntilSubscribed(clientID: clientID) else {
            throw HarnessError.timedOut(
                what: "mosquitto_sub subscription: \(process.capturedError())", after: .seconds(10))
        }
    }

    func stop() async { await process.terminate(grace: .seconds(2)) }
}

/// A TCP relay between the client and a broker that a test can cut, as a network failure
/// would: both sockets are closed without any MQTT packet, so the broker sees the client
/// vanish without DISCONNECT (and publishes its will).
final class TCPProxy: Sendable {
    private let listener: TCPListener
    private let links: Recorder<TCPConnection>
    private let acceptor: Task<Void, Never>

    var port: UInt16 { listener.address.port }

    init(to targetPort: UInt16, host: String = "127.0.0.1") throws {
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        let links = Recorder<TCPConnection>()
        self.links = links
        self.listener = listener
        acceptor = Task {
            while !Task.isCancelled {
                guard let downstream = try? await listener.accept() else { return }
                guard let upstream = try? await TCPConnection.connect(host: host, port: targetPort) else {
                    downstream.close()
                    continue
                }
                links.append(downstream)
                links.append(upstream)
                Task { await TCPProxy.pump(from: downstream, to: upstream) }
                Task { await TCPProxy.pump(from: upstream, to: downstream) }
            }
        }
    }

    private static func pump(from source: TCPConnection, to destination: TCPConnection) async {
        while let bytes = try? await source.read(maxBytes: 64 * 1024, deadline: nil), !bytes.isEmpty {
            do {
                try await destination.write(bytes, deadline: .now + .seconds(5))
            } catch {
                break
            }
        }
        source.close()
        destination.close()
    }

    /// Closes every relayed connection, both sides, at once.
    func sever() {
        for link in links.all { link.close() }
    }

    func close() {
        acceptor.cancel()
        listener.close()
        sever()
    }
}
