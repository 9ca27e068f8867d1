import Harness
import Net
import Wire

/// `idle-page`: `idle` with the status page on (`--http-listen` on loopback) and one browser's
/// event stream (`GET api/events`) open and read for the whole period: what the page costs an
/// idle bridge (issue target: within 1 MB and 0.05 % of a core of `idle`).
struct IdlePage: Scenario {
    static let name = "idle-page"

    var metrics: [(name: String, unit: String)] {
        [("idle_page_rss_mb", "MB"), ("idle_page_cpu_percent", "%")]
    }

    func run(options: BenchOptions) async throws -> [Measurement] {
        let port = try FreePort.tcp()
        return try await Idle.measure(
            options: options, prefix: "idle_page", extraArguments: ["--http-listen", "127.0.0.1:\(port)"],
            note: ", status page on with one event stream"
        ) { _ in
            let connection = try await TCPConnection.connect(
                to: try SocketAddress(ip: "127.0.0.1", port: port), timeout: .seconds(5))
            var request = HTTPRequest(method: "GET", target: "/api/events")
            request.headers.set(name: "Host", value: "127.0.0.1:\(port)")
            try await connection.write(try request.encode(), deadline: .now + .seconds(5))
            // Read as a browser does, so the bridge's writes never back up.
            let reader = Task {
                while !Task.isCancelled {
                    guard let bytes = try? await connection.read(maxBytes: 16 * 1024, deadline: nil), !bytes.isEmpty
                    else { return }
                }
            }
            return {
                reader.cancel()
                connection.close()
            }
        }
    }
}
