import Net
import StatusPage
import Testing
import Wire

extension StatusPageSuite {
    /// Guessing the token: a wrong bearer, cookie or login costs the same, from one budget per
    /// source address, and closes its connection.
    @Suite("Status page token guessing")
    struct StatusPageTokenGuessTests {
        static let token = "s3cret-page-token"

        /// The fixture's limits: no delay (the delay's timing is `TokenFailuresTests`'), a budget of 3.
        static var limits: StatusPageLimits {
            var limits = StatusPageLimits()
            limits.wrongTokenDelay = .zero
            limits.tokenFailureBudget = 3
            return limits
        }

        @Test("a wrong bearer closes its connection; past the budget even the right token gets 429")
        func budget() async throws {
            try await withStatusPage(token: Self.token, rokuHost: "127.0.9.43", limits: Self.limits) { fixture in
                let client = PageClient(port: fixture.port)
                // One kept-alive connection: the wrong bearer's 401 closes it.
                let connection = try await client.connect()
                defer { connection.close() }
                var request = HTTPRequest(method: "GET", target: "/api/state")
                request.headers.set(name: "Host", value: "127.0.0.1:\(fixture.port)")
                request.headers.set(name: "Authorization", value: "Bearer nope")
                try await connection.write(try request.encode(), deadline: .now + .seconds(30))
                let first = try await client.readResponse(connection, deadline: .now + .seconds(30))
                #expect(first.status == 401)
                #expect(!first.keepAlive, "a wrong token closes the connection")
                try? await connection.write(try request.encode(), deadline: .now + .seconds(30))
                let second = try? await client.readResponse(connection, deadline: .now + .seconds(30))
                #expect(second == nil, "a second guess on that connection is not answered")
                // A wrong cookie and a wrong login spend the same budget.
                let cookie = try await client.send("GET", "/api/state", headers: [("Cookie", "tv2mqtt_session=nope")])
                #expect(cookie.status == 401)
                let login = try await client.send("POST", "/login", body: Array("token=nope".utf8))
                #expect(login.status == 401)
                let spent = try await client.send(
                    "GET", "/api/state", headers: [("Authorization", "Bearer \(Self.token)")])
                #expect(spent.status == 429, "the budget of 3 is spent for 127.0.0.1")
                let spentLogin = try await client.send("POST", "/login", body: Array("token=\(Self.token)".utf8))
                #expect(spentLogin.status == 429)
                // No credential at all is no guess: the page's first load still gets its 401.
                let none = try await client.send("GET", "/api/state")
                #expect(none.status == 401)
            }
        }
    }
}
