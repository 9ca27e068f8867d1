import Glibc
import Harness
import Net

/// A private mosquitto on a free loopback port, logging only notices and worse.
///
/// Not `Harness.MosquittoBroker`: that one writes `log_type all` (every PUBLISH and PUBACK as a
/// log line, which the tests read), and `log_type` lines add up, so it cannot be quietened.
/// At 200,000 messages that logging would be the bottleneck for both clients of
/// `mqtt-throughput` and would slow the broker under the fleet, flattening every figure.
final class BenchBroker: Sendable {
    let host = "127.0.0.1"
    let port: UInt16
    let directory: TemporaryDirectory
    let process: ChildProcess

    private init(port: UInt16, directory: TemporaryDirectory, process: ChildProcess) {
        self.port = port
        self.directory = directory
        self.process = process
    }

    var url: String { "mqtt://\(host):\(port)" }
    var pid: pid_t { process.pid }

    /// Starts mosquitto and waits (at most 10 s) until it accepts connections. Retries with a
    /// new port when another process took the free one first (mosquitto then exits at once).
    static func start() async throws -> BenchBroker {
        for _ in 0..<3 {
            let directory = try TemporaryDirectory(prefix: "tvbench-mosquitto")
            let port = try FreePort.tcp(host: "127.0.0.1")
            var lines = [
                "per_listener_settings false", "allow_anonymous true", "persistence false",
                "log_dest file \(directory.file("mosquitto.log"))", "log_type error", "log_type warning",
                "log_type notice", "connection_messages true", "max_queued_messages 100000",
                "listener \(port) 127.0.0.1",
            ]
            if geteuid() == 0 { lines.append("user root") }  // else it drops to `mosquitto`, which cannot read the 0700 dir
            let config = directory.file("mosquitto.conf")
            try FileText.write(lines.joined(separator: "\n") + "\n", to: config)
            let stderr = directory.file("stderr.log")
            let process = try await ChildProcess.spawn(
                "mosquitto", ["-c", config], stdout: .file(stderr), stderr: .file(stderr))
            let broker = BenchBroker(port: port, directory: directory, process: process)
            let ready = await waitUntil(timeout: .seconds(10), interval: .milliseconds(10)) {
                guard process.isRunning else { return true }
                return await broker.acceptsConnections()
            }
            if ready && process.isRunning { return broker }
            await process.terminate(grace: .seconds(1))
        }
        throw BenchError("mosquitto did not start (is it installed? apt-get install mosquitto)")
    }

    func stop() async {
        await process.terminate(grace: .seconds(3))
    }

    /// Watches for the broker's line on `clientID`'s connection (it sends the CONNACK right after).
    func watchForConnection(of clientID: String, timeout: Duration) -> LogLineWatcher {
        LogLineWatcher(path: logFile, lines: [" as \(clientID) ("], timeout: timeout)
    }

    /// Watches for the broker's line on the end of `clientID`'s connection ("Client ID
    /// disconnected." after a DISCONNECT, "… closed its connection." without one): by then it
    /// has read every byte the client sent. The configuration logs connections
    /// (`connection_messages`): a line per connect and disconnect, nothing per packet.
    func watchForEnd(of clientID: String, timeout: Duration) -> LogLineWatcher {
        LogLineWatcher(
            path: logFile, lines: ["Client \(clientID) disconnected.", "Client \(clientID) closed its connection."],
            timeout: timeout)
    }

    private var logFile: String { directory.file("mosquitto.log") }

    private func acceptsConnections() async -> Bool {
        guard let connection = try? await TCPConnection.connect(host: host, port: port, timeout: .milliseconds(300))
        else { return false }
        connection.close()
        return true
    }
}

/// A failure that ends a scenario, with a message for the table.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
