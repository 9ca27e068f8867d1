import Clients
import Wire

/// One WebSocket to Chromium's DevTools endpoint, speaking the Chrome DevTools Protocol: each
/// request carries an id, its answer the same id; events (no id) are not needed here and are
/// dropped. Commands for a page go through its flattened session (`sessionId`).
actor DevToolsConnection {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A screenshot of a 1200 × 2000 page is a few hundred kilobytes of base64.
    static let maxMessageBytes = 32 << 20

    private let connection: WebSocketConnection
    private var nextID = 1
    private var waiting: [Int: CheckedContinuation<JSONValue, any Error>] = [:]
    private var ended: String?

    private init(connection: WebSocketConnection) {
        self.connection = connection
    }

    /// Connects to `url` (`ws://127.0.0.1:PORT/devtools/browser/ID`) and starts reading answers.
    static func connect(_ url: String) async throws -> DevToolsConnection {
        let configuration = WebSocketConfiguration(
            maxFrameSize: maxMessageBytes, maxMessageSize: maxMessageBytes, maxBufferedIncomingBytes: maxMessageBytes)
        let connected = try await WebSocketClient.connect(url: url, configuration: configuration)
        let devTools = DevToolsConnection(connection: connected.connection)
        Task { await devTools.read() }
        return devTools
    }

    /// Sends `method` with `params` (to the page of `session`, if given) and returns its `result`.
    func call(_ method: String, _ params: JSONValue = [:], session: String? = nil, timeout: Duration = .seconds(15))
        async throws -> JSONValue
    {
        if let ended { throw Failure(description: "DevTools connection ended: \(ended)") }
        let id = nextID
        nextID += 1
        var message: [String: JSONValue] = ["id": .integer(Int64(id)), "method": .string(method), "params": params]
        if let session { message["sessionId"] = .string(session) }
        let text = JSONValue.object(message).serialized()
        let answer = try await withCheckedThrowingContinuation { continuation in
            waiting[id] = continuation
            Task {
                do {
                    try await connection.send(text: text)
                } catch {
                    self.finish(id, .failure(Failure(description: "\(method): cannot send: \(error)")))
                }
            }
            Task {
                try? await Task.sleep(for: timeout)
                self.finish(id, .failure(Failure(description: "\(method): no answer within \(timeout)")))
            }
        }
        if let error = answer["error"] {
            throw Failure(description: "\(method): \(error.serialized())")
        }
        return answer["result"] ?? [:]
    }

    func close() async {
        _ = try? await connection.close()
    }

    private func finish(_ id: Int, _ result: Result<JSONValue, any Error>) {
        waiting.removeValue(forKey: id)?.resume(with: result)
    }

    private func read() async {
        let limits = JSONLimits(maxDepth: 64, maxBytes: Self.maxMessageBytes)
        for await incoming in connection.incoming {
            guard case .text(let text) = incoming else { continue }
            guard let message = try? JSONParser.parse(text, limits: limits), let id = message["id"]?.intValue else {
                continue
            }
            finish(id, .success(message))
        }
        ended = "closed by Chromium"
        for id in Array(waiting.keys) { finish(id, .failure(Failure(description: "DevTools connection closed"))) }
    }
}
