import Glibc
import Net
import Synchronization

/// A real `mosquitto` broker for one test, configured in its own temporary directory.
///
/// ```swift
/// try await withMosquitto { broker in
///     try await MosquittoClients.publish(to: broker.endpoint(), topic: "a/b", message: "hi")
/// }
/// ```
///
/// `stop()` ends it with SIGTERM; `kill()` with SIGKILL (a crash); `restart()` starts it again
/// on the same ports. The directory (configuration, log, password file) is removed when the
/// object goes away; a broker still running then is killed.
public final class MosquittoBroker: Sendable {
    public let options: MosquittoOptions
    /// The listeners' address.
    public let host: String
    /// The plain MQTT port (meaningless when `options.plainListener` is false).
    public let port: UInt16
    /// The TLS port, when `options.tls` is set.
    public let tlsPort: UInt16?
    /// The working directory: `mosquitto.conf`, `mosquitto.log`, `stderr.log`, `passwd`.
    public let directory: TemporaryDirectory
    public let configPath: String
    public let logPath: String
    /// Where mosquitto's own stdout and stderr go (messages from before the log file opens).
    public let stderrPath: String
    private let executable: String
    private let process = Mutex<ChildProcess?>(nil)

    private init(
        options: MosquittoOptions, executable: String, directory: TemporaryDirectory, port: UInt16, tlsPort: UInt16?
    ) {
        self.options = options
        self.executable = executable
        self.directory = directory
        self.host = options.host
        self.port = port
        self.tlsPort = tlsPort
        self.configPath = directory.file("mosquitto.conf")
        self.logPath = directory.file("mosquitto.log")
        self.stderrPath = directory.file("stderr.log")
    }

    deinit {
        process.withLock { $0?.kill() }
    }

    /// `mqtt://host:port` (brackets around an IPv6 literal).
    public var url: String { "mqtt://\(hostForURL):\(port)" }
    /// `mqtts://host:tlsPort`, when there is a TLS listener.
    public var tlsURL: String? { tlsPort.map { "mqtts://\(hostForURL):\($0)" } }
    private var hostForURL: String { host.contains(":") ? "[\(host)]" : host }

    /// The broker's process id while it runs.
    public var pid: pid_t? { process.withLock { $0?.isRunning == true ? $0?.pid : nil } }
    /// Whether the broker process is running.
    public var isRunning: Bool { process.withLock { $0?.isRunning ?? false } }

    /// Everything mosquitto has logged so far (all starts), with `log_type all`.
    public func logText() -> String { FileText.read(logPath) ?? "" }

    /// Starts a broker and waits until every listener accepts TCP connections. When a port was
    /// picked automatically and another process grabbed it first, retries with new ports.
    /// Throws `HarnessError.brokerDidNotStart` with mosquitto's log when it fails.
    public static func start(_ options: MosquittoOptions = .init()) async throws(HarnessError) -> MosquittoBroker {
        if !options.plainListener && options.tls == nil {
            throw .invalidUse("MosquittoOptions: no plain listener and no TLS listener")
        }
        let executable = try ExecutableLookup.require(options.executable)
        let automaticPorts = options.port == nil || (options.tls != nil && options.tls?.port == nil)
        var attempt = 0
        while true {
            attempt += 1
            let directory = try TemporaryDirectory(prefix: "mosquitto")
            let port: UInt16
            if let fixed = options.port { port = fixed } else { port = try FreePort.tcp(host: options.host) }
            var tlsPort: UInt16?
            if let tls = options.tls {
                if let fixed = tls.port { tlsPort = fixed } else { tlsPort = try FreePort.tcp(host: options.host) }
                while tlsPort == port && tls.port == nil { tlsPort = try FreePort.tcp(host: options.host) }
            }
            let broker = MosquittoBroker(
                options: options, executable: executable, directory: directory, port: port, tlsPort: tlsPort)
            try await broker.writeConfiguration()
            do {
                try await broker.launch()
                return broker
            } catch {
                // The message is in mosquitto's log or stderr, both of which the error carries.
                let portTaken = "\(error)".contains("Address already in use")
                if !(portTaken && automaticPorts && attempt < 5) { throw error }
            }
        }
    }

    /// SIGTERM, then waits for the broker to end (SIGKILL after 5 s). Harmless when not running.
    public func stop() async {
        guard let child = process.withLock({ $0 }) else { return }
        await child.terminate(grace: .seconds(5))
    }

    /// SIGKILL now, as a crash would; waits until the process is gone.
    public func kill() async {
        guard let child = process.withLock({ $0 }) else { return }
        child.kill()
        _ = await child.wait()
    }

    /// Stops the broker (if running) and starts it again with the same configuration and ports,
    /// waiting until it accepts connections. With persistence off, retained messages and
    /// sessions are gone afterwards.
    ///
    /// The ports must stay (the clients know them), and while the broker is down any socket
    /// may be given one as its ephemeral port: "address in use" is retried for up to 10 s,
    /// by which time such a socket (a test's short connection) has normally gone.
    public func restart() async throws(HarnessError) {
        await stop()
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            do {
                try await launch()
                return
            } catch {
                guard "\(error)".contains("Address already in use"), ContinuousClock.now < deadline else { throw error }
                try? await EventLoop.sleep(for: .milliseconds(100), clock: .system)  // paced: port still taken
            }
        }
    }

    /// Waits until mosquitto's log contains `text`.
    public func waitForLog(containing text: String, timeout: Duration = .seconds(30)) async -> Bool {
        await waitUntil(timeout: timeout) { logText().contains(text) }
    }

    /// Waits until the broker has acknowledged a subscription from `clientID` (its log line
    /// `Sending SUBACK to <clientID>`), so a publish that follows reaches that subscriber.
    public func waitUntilSubscribed(clientID: String, timeout: Duration = .seconds(30)) async -> Bool {
        await waitForLog(containing: "Sending SUBACK to \(clientID)\n", timeout: timeout)
    }

    /// Starts mosquitto and waits until it is ready: it has logged `mosquitto version … running`
    /// (written once every listener is bound; counted, because the log spans restarts) and every
    /// port accepts a TCP connection. A successful connect alone is not proof: another process
    /// listening on the port would pass that test while mosquitto fails to bind.
    private func launch() async throws(HarnessError) {
        let runningBefore = runningMarkers()
        let child = try await ChildProcess.spawn(
            executable, ["-c", configPath], stdout: .file(stderrPath), stderr: .file(stderrPath))
        process.withLock { $0 = child }
        let ports = (options.plainListener ? [port] : []) + (tlsPort.map { [$0] } ?? [])
        let ready = await waitUntil(timeout: options.readyTimeout, interval: .milliseconds(10)) {
            guard child.isRunning else { return true }
            return runningMarkers() > runningBefore
                && ports.allSatisfy { tcpAcceptsConnections(host: host, port: $0) }
        }
        if let status = child.exitStatus {
            throw .brokerDidNotStart(reason: "mosquitto ended with \(status)", log: diagnostics())
        }
        if !ready {
            await child.terminate(grace: .seconds(1))
            throw .brokerDidNotStart(
                reason: "not ready (log line 'running', ports \(ports) accepting) after \(options.readyTimeout)",
                log: diagnostics())
        }
    }

    /// How many times the log says `mosquitto version … running`.
    private func runningMarkers() -> Int {
        logText().split(separator: "\n").count { $0.contains(": mosquitto version ") && $0.hasSuffix(" running") }
    }

    private func diagnostics() -> String {
        let configuration = FileText.read(configPath) ?? ""
        return "\(FileText.read(stderrPath) ?? "")\(logText())--- \(configPath) ---\n\(configuration)"
    }
}

/// Starts a broker, runs `body` with it, and stops the broker afterwards, also when `body` throws.
public func withMosquitto<T>(
    _ options: MosquittoOptions = .init(), isolation: isolated (any Actor)? = #isolation,
    _ body: (MosquittoBroker) async throws -> T
) async throws -> T {
    let broker = try await MosquittoBroker.start(options)
    do {
        let result = try await body(broker)
        await broker.stop()
        return result
    } catch {
        await broker.stop()
        throw error
    }
}
