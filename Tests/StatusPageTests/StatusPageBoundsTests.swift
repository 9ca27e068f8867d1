import Clients
import Harness
import Net
import StatusPage
import Testing
import Wire

extension StatusPageSuite {
    /// Each bound of the page refused with its own status, and the page still serving others.
    @Suite("Status page bounds")
    struct StatusPageBoundsTests {
        static func tightLimits() -> StatusPageLimits {
            var limits = StatusPageLimits()
            limits.http.requestDeadline = .seconds(2)
            limits.http.maxConnections = 4
            limits.maxEventStreams = 1
            return limits
        }

        @Test("oversized headers, too many headers and an oversized body are refused")
        func sizes() async throws {
            try await withStatusPage(rokuHost: "127.0.9.20", limits: Self.tightLimits()) { fixture in
                let client = PageClient(port: fixture.port)
                let limits = Self.tightLimits().http
                let big = try await client.send(
                    "GET", "/", headers: [("X-Big", String(repeating: "a", count: limits.maxHeaderBytes))])
                #expect(big.status == 431)
                let many = (0...limits.maxHeaderCount).map { ("X-H\($0)", "v") }
                #expect(try await client.send("GET", "/", headers: many).status == 431)
                let body = [UInt8](repeating: 0x20, count: limits.maxBodyBytes + 1)
                #expect(try await client.send("POST", "/api/tv/add", body: body).status == 413)
                #expect(try await client.send("GET", "/").status == 200, "the page still serves")
            }
        }

        @Test("a slow client gets 408 at the deadline while others are served")
        func slowClient() async throws {
            try await withStatusPage(rokuHost: "127.0.9.21", limits: Self.tightLimits()) { fixture in
                let client = PageClient(port: fixture.port)
                let slow = try await client.connect()
                defer { slow.close() }
                try await slow.write(Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8), deadline: .now + .seconds(5))
                #expect(try await client.send("GET", "/").status == 200, "another client is served meanwhile")
                let response = try await client.readResponse(slow, deadline: .now + .seconds(20))
                #expect(response.status == 408)
            }
        }

        @Test("connections beyond the limit get 503; event streams beyond theirs too")
        func connectionsAndStreams() async throws {
            let limits = Self.tightLimits()
            try await withStatusPage(rokuHost: "127.0.9.22", limits: limits) { fixture in
                let client = PageClient(port: fixture.port)
                let stream = try await EventStreamReader(client)
                defer { stream.close() }
                #expect(await stream.waitFor("retry:", timeout: .seconds(30)))
                #expect(try await client.send("GET", "/api/events").status == 503)
                var held: [TCPConnection] = []
                defer { for connection in held { connection.close() } }
                for _ in 1..<limits.http.maxConnections { held.append(try await client.connect()) }
                // The server has taken them in (the stream's and the held) before the one too
                // many arrives; one read before would be answered by the Host check (421).
                let full = await waitUntil { fixture.server.connectionCount == limits.http.maxConnections }
                #expect(full, "\(fixture.server.connectionCount) connections taken in")
                let refused = try await client.exchange(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
                #expect(refused.status == 503)
                for connection in held { connection.close() }
                held = []
                let left = await waitUntil { fixture.server.connectionCount == 1 }
                #expect(left, "\(fixture.server.connectionCount) connections left, the stream's only")
                #expect(try await client.send("GET", "/").status == 200, "served again once they left")
            }
        }
    }
}
