/// A `mosquitto_sub` left running in the background (see `MosquittoClients.startSubscriber`).
public final class MosquittoSubscriber: Sendable {
    public let process: ChildProcess
    /// The MQTT client id it connected with.
    public let clientID: String
    /// The file its standard output (one line per message) is written to.
    public let outputPath: String
    private let directory: TemporaryDirectory

    init(process: ChildProcess, clientID: String, outputPath: String, directory: TemporaryDirectory) {
        self.process = process
        self.clientID = clientID
        self.outputPath = outputPath
        self.directory = directory
    }

    /// The complete lines received so far (`"topic payload"` in verbose mode). A payload that
    /// itself contains newlines spans several lines.
    public func lines() -> [String] {
        Self.completeLines(FileText.read(outputPath) ?? "")
    }

    /// Waits until at least `count` lines have arrived and returns them all; after `timeout`,
    /// returns whatever arrived.
    public func waitForLines(count: Int, timeout: Duration = .seconds(30)) async -> [String] {
        _ = await waitUntil(timeout: timeout) { lines().count >= count }
        return lines()
    }

    /// Waits until `broker` logs the SUBACK for this client; throws `timedOut` otherwise (with the
    /// subscriber's error output, e.g. a refused connection, in the message).
    public func waitUntilSubscribed(on broker: MosquittoBroker, timeout: Duration = .seconds(30))
        async throws(HarnessError)
    {
        guard await broker.waitUntilSubscribed(clientID: clientID, timeout: timeout) else {
            throw .timedOut(
                what: "subscription of \(clientID) (\(process.exitStatus.map { "\($0)" } ?? "running"): "
                    + process.capturedError() + ")", after: timeout)
        }
    }

    /// Its error output so far (connection errors).
    public func errorOutput() -> String { process.capturedError() }

    /// Stops the subscriber (SIGTERM, SIGKILL after 2 s).
    public func stop() async {
        await process.terminate(grace: .seconds(2))
    }

    /// Splits on newlines and drops a trailing incomplete line.
    static func completeLines(_ text: String) -> [String] {
        var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        parts.removeLast()
        return parts
    }
}
