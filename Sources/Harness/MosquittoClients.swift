/// The `mosquitto_pub` and `mosquitto_sub` tools, bounded by timeouts: a second, independent MQTT
/// implementation to check ours against.
public enum MosquittoClients {
    /// Publishes one message (an empty `message` is sent as a zero-length payload, `-n`, which
    /// clears a retained message). Throws `commandFailed` with the tool's error output when the
    /// broker refuses the connection or the publish, `timedOut` when it hangs.
    public static func publish(
        to endpoint: MQTTEndpoint, topic: String, message: String, qos: Int = 0, retain: Bool = false,
        clientID: String? = nil, timeout: Duration = .seconds(10)
    ) async throws(HarnessError) {
        var arguments = endpoint.arguments + ["-t", topic, "-q", String(qos)]
        arguments += message.isEmpty ? ["-n"] : ["-m", message]
        if retain { arguments.append("-r") }
        if let clientID { arguments += ["-i", clientID] }
        try await ChildProcess.runChecked("mosquitto_pub", arguments, timeout: timeout)
    }

    /// Subscribes to `topics`, collects up to `count` messages, and returns them as lines:
    /// `"topic payload"` when `verbose`, the payload alone otherwise. Returns what arrived when
    /// `timeout` passes first (`mosquitto_sub -W`, rounded up to whole seconds, exit code 27).
    /// Messages published before the subscription is in place are missed unless retained; for
    /// that use `startSubscriber` and `MosquittoSubscriber.waitUntilSubscribed(on:)`.
    public static func subscribe(
        to endpoint: MQTTEndpoint, topics: [String], count: Int, timeout: Duration, verbose: Bool = true,
        qos: Int = 0, clientID: String? = nil
    ) async throws(HarnessError) -> [String] {
        let seconds = max(1, timeout.components.seconds + (timeout.components.attoseconds > 0 ? 1 : 0))
        var arguments = endpoint.arguments + topics.flatMap { ["-t", $0] }
        arguments += ["-q", String(qos), "-C", String(count), "-W", String(seconds)]
        if verbose { arguments.append("-v") }
        if let clientID { arguments += ["-i", clientID] }
        let result = try await ChildProcess.run("mosquitto_sub", arguments, timeout: .seconds(seconds + 5))
        guard result.status == .exited(0) || result.status == .exited(27) else {
            throw .commandFailed(
                command: "mosquitto_sub " + arguments.joined(separator: " "), status: result.status,
                output: result.error + result.output)
        }
        return MosquittoSubscriber.completeLines(result.output)
    }

    /// The retained messages on the broker under `filters` right now, by topic: what a client
    /// that subscribes now (Home Assistant, say) is given. `mosquitto_sub --retained-only` ends
    /// at the first live message, which the broker sends only after every retained one.
    public static func retained(
        on endpoint: MQTTEndpoint, filters: [String] = ["#"], timeout: Duration = .seconds(2)
    ) async throws(HarnessError) -> [String: String] {
        let seconds = max(1, timeout.components.seconds)
        let arguments =
            endpoint.arguments + filters.flatMap { ["-t", $0] } + ["-v", "--retained-only", "-W", String(seconds)]
        let result = try await ChildProcess.run("mosquitto_sub", arguments, timeout: .seconds(seconds + 5))
        guard result.status == .exited(0) || result.status == .exited(27) else {
            throw .commandFailed(
                command: "mosquitto_sub " + arguments.joined(separator: " "), status: result.status,
                output: result.error + result.output)
        }
        var messages: [String: String] = [:]
        for line in MosquittoSubscriber.completeLines(result.output) {
            let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            messages[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return messages
    }

    /// `subscribe` to a single topic filter.
    public static func subscribe(
        to endpoint: MQTTEndpoint, topic: String, count: Int, timeout: Duration, verbose: Bool = true,
        qos: Int = 0, clientID: String? = nil
    ) async throws(HarnessError) -> [String] {
        try await subscribe(
            to: endpoint, topics: [topic], count: count, timeout: timeout, verbose: verbose, qos: qos,
            clientID: clientID)
    }

    /// Starts a long-running `mosquitto_sub` whose output goes to a file, read with `lines()`.
    /// Its client id is `clientID` or a random `harness-sub-…`, so the broker's log can tell when
    /// it is subscribed (`waitUntilSubscribed(on:)`). Stop it with `stop()`.
    public static func startSubscriber(
        to endpoint: MQTTEndpoint, topics: [String], qos: Int = 0, verbose: Bool = true, clientID: String? = nil
    ) async throws(HarnessError) -> MosquittoSubscriber {
        let clientID = clientID ?? "harness-sub-\(UInt32.random(in: 0...UInt32.max))"
        let directory = try TemporaryDirectory(prefix: "mosquitto-sub")
        let outputPath = directory.file("messages.txt")
        var arguments = endpoint.arguments + topics.flatMap { ["-t", $0] } + ["-q", String(qos), "-i", clientID]
        if verbose { arguments.append("-v") }
        let process = try await ChildProcess.spawn(
            "mosquitto_sub", arguments, stdout: .file(outputPath), stderr: .capture)
        return MosquittoSubscriber(process: process, clientID: clientID, outputPath: outputPath, directory: directory)
    }
}
