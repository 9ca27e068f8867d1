import TVModel
import TestSupport
import Testing

@testable import Drivers

/// Issue 13, item 12: typed text (a password, a search) never comes back in an error, which
/// goes to the log and to `command_failed`. A Roku types text as one `POST /keypress/Lit_<c>`
/// per character, and its errors name the request.
/// On a frozen clock: each test ends in what the fake TV sent, or in its closing.
@Suite("Typed text is not echoed", .frozenClock)
struct TypedTextEchoTests {
    static func driver(for tv: MisbehavingTV) -> RokuDriver {
        var roku = RokuSettings()
        roku.ecp2 = .off
        var description = TVDescription.sample(host: tv.host)
        description.identity.port = tv.port
        return RokuDriver(description: description, settings: MisbehavingTVTests.settings, roku: roku)
    }

    static func failure(typing text: String, to tv: MisbehavingTV) async throws -> DriverError {
        let driver = driver(for: tv)
        defer { Task { await driver.shutdown() } }
        var caught: DriverError?
        do {
            try await driver.perform(.text(text))
        } catch {
            caught = error
        }
        return try #require(caught, "the Roku's refusal was not reported")
    }

    @Test("a Roku refusing a typed character: the error names the request, not the character or the body")
    func refusedKeypress() async throws {
        let body = "Lit_h is not allowed"
        let tv = try MisbehavingTV(
            host: "127.0.0.35",
            answer: Array(
                "HTTP/1.1 500 Internal Server Error\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8))
        defer { tv.stop() }
        let error = try await Self.failure(typing: "hunter2", to: tv)
        #expect(error.message == "the Roku refused POST /keypress/Lit_…: HTTP 500", "\(error.message)")
    }

    @Test("a Roku that breaks off while text is typed: the transport error does not name the character")
    func brokenAnswer() async throws {
        let tv = try MisbehavingTV(host: "127.0.0.35", answer: Array("SSH-2.0-OpenSSH_9.6\r\n\r\n".utf8))
        defer { tv.stop() }
        let error = try await Self.failure(typing: "hunter2", to: tv)
        #expect(error.message.contains("POST /keypress/Lit_…"), "\(error.message)")
        #expect(!error.message.contains("Lit_h"), "\(error.message)")
    }

    @Test("a device refusing a probe: the error gives the status, never a word of the body")
    func refusedProbe() async throws {
        let body = "root-token-4c1d: internal service"
        let tv = try MisbehavingTV(
            host: "127.0.0.35",
            answer: Array("HTTP/1.1 404 Not Found\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8))
        defer { tv.stop() }
        var caught: DriverError?
        do {
            _ = try await RokuProbe.describe(host: tv.host, port: tv.port, settings: MisbehavingTVTests.settings)
        } catch {
            caught = error
        }
        let error = try #require(caught)
        #expect(error.message == "the Roku refused GET /query/device-info: HTTP 404", "\(error.message)")
    }
}
