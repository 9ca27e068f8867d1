import Net
import Wire

/// A bare HTTP/1.1 client on a real socket, so the tests send exactly the bytes they mean.
struct PageClient {
    let port: UInt16

    /// Sends one request and reads its response (`Connection: close`).
    func send(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = [],
        sameOrigin: Bool = true
    ) async throws -> HTTPResponse {
        var request = HTTPRequest(method: method, target: path, body: body)
        request.headers.set(name: "Host", value: "127.0.0.1:\(port)")
        request.headers.set(name: "Connection", value: "close")
        if sameOrigin && method == "POST" { request.headers.set(name: "Origin", value: "http://127.0.0.1:\(port)") }
        for (name, value) in headers { request.headers.set(name: name, value: value) }
        return try await exchange(try request.encode())
    }

    /// Writes `bytes` as they are and reads the response (nil: closed without one).
    func exchange(_ bytes: [UInt8], timeout: Duration = .seconds(20)) async throws -> HTTPResponse {
        let connection = try await connect()
        defer { connection.close() }
        try await connection.write(bytes, deadline: .now + .seconds(10))
        return try await readResponse(connection, deadline: .now + timeout)
    }

    func connect() async throws -> TCPConnection {
        try await TCPConnection.connect(to: try SocketAddress(ip: "127.0.0.1", port: port), timeout: .seconds(10))
    }

    func readResponse(_ connection: TCPConnection, deadline: ContinuousClock.Instant) async throws -> HTTPResponse {
        var parser = HTTPResponseParser()
        while true {
            if let response = try parser.next() { return response }
            let bytes = try await connection.read(maxBytes: 64 * 1024, deadline: deadline)
            if bytes.isEmpty {
                guard let response = try parser.finish() else { throw NetError(.closed, "read", "no response") }
                return response
            }
            parser.append(bytes)
        }
    }

    /// `GET api/state` as JSON.
    func state(headers: [(String, String)] = []) async throws -> JSONValue {
        let response = try await send("GET", "/api/state", headers: headers)
        return try JSONParser.parse(response.body)
    }
}

/// An open `api/events` stream, read as text.
final class EventStreamReader {
    let connection: TCPConnection
    private(set) var text = ""

    init(_ client: PageClient, headers: [(String, String)] = []) async throws {
        connection = try await client.connect()
        var request = HTTPRequest(method: "GET", target: "/api/events")
        request.headers.set(name: "Host", value: "127.0.0.1:\(client.port)")
        request.headers.set(name: "Accept", value: "text/event-stream")
        for (name, value) in headers { request.headers.set(name: name, value: value) }
        try await connection.write(try request.encode(), deadline: .now + .seconds(10))
    }

    /// Reads until `marker` has arrived after `from` characters (or the deadline); true if it did.
    func waitFor(_ marker: String, from: Int = 0, timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if text.dropFirst(from).contains(marker) { return true }
            guard let bytes = try? await connection.read(maxBytes: 64 * 1024, deadline: deadline), !bytes.isEmpty
            else { return text.dropFirst(from).contains(marker) }
            text += String(decoding: bytes, as: UTF8.self)
        }
        return text.dropFirst(from).contains(marker)
    }

    func close() { connection.close() }
}
