import Clients
import Net
import TVSimulators
import Testing
import Wire

/// Starts a simulated Roku on a free loopback port, runs `body`, and stops it even when
/// `body` throws.
func withRoku(
    _ options: RokuSimulatorOptions = RokuSimulatorOptions(host: "127.0.0.1", port: 0),
    log: CommandLog = .memory(),
    _ body: (RokuSimulator, HTTPClient, CommandLog) async throws -> Void
) async throws {
    let simulator = try await RokuSimulator.start(options, log: log)
    try await withHTTPClient(simulator, port: simulator.port, host: simulator.host, log: log, body)
}

/// Runs `body` with an HTTP client on the simulator's `host:port`, then closes the client and
/// stops the simulator, even when `body` throws.
func withHTTPClient<Simulator: SimulatedTV>(
    _ simulator: Simulator, port: UInt16, host: String, log: CommandLog,
    _ body: (Simulator, HTTPClient, CommandLog) async throws -> Void
) async throws {
    // Generous: a loaded machine (the full suite, other builds) answered loopback requests after
    // 3 s, and at a full run's start the first answers have taken over 3 s.
    let client = HTTPClient(host: host, port: port, requestTimeout: .seconds(15))
    do {
        try await body(simulator, client, log)
    } catch {
        await client.closeIdle()
        await simulator.stop()
        throw error
    }
    await client.closeIdle()
    await simulator.stop()
}

extension HTTPClient {
    func get(_ target: String) async throws -> HTTPResponse { try await request("GET", target) }
    func post(_ target: String, _ body: String = "") async throws -> HTTPResponse {
        try await request("POST", target, body: Array(body.utf8))
    }

    /// GETs an XML document and parses it.
    func xml(_ target: String) async throws -> XMLElement {
        let response = try await get(target)
        #expect(response.status == 200, "GET \(target)")
        #expect(response.headers["Content-Type"] == "text/xml; charset=\"utf-8\"")
        return try XMLReader.parse(response.body)
    }

    func simState() async throws -> JSONValue {
        try JSONParser.parse(try await get("/sim/state").body)
    }
}

extension HTTPResponse {
    var text: String { String(decoding: body, as: UTF8.self) }
}
