import Clients
import Net
import TVSimulators
import Testing
import Wire

/// A bare ECP-2 client for the simulator: each message read with a deadline.
struct ECP2TestClient {
    let connection: WebSocketConnection

    static func connect(_ sim: RokuSimulator) async throws -> ECP2TestClient {
        // The simulator is under test, not the client's deadlines: they are hang bounds here.
        let connected = try await WebSocketClient.connect(
            url: "ws://\(sim.host):\(sim.port)/ecp-session", subprotocols: ["ecp-2"],
            connectTimeout: .seconds(30), handshakeTimeout: .seconds(30))
        #expect(connected.subprotocol == "ecp-2")
        return ECP2TestClient(connection: connected.connection)
    }

    /// The next message, nil when the connection closed or nothing came within the 30 s hang bound.
    func next() async -> ECP2Message? {
        let connection = connection
        let incoming = await withTaskGroup(of: WebSocketIncoming?.self) { group in
            group.addTask {
                var iterator = connection.incoming.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(30))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard case .text(let text)? = incoming else { return nil }
        return try? ECP2Message.parse(text)
    }

    /// The next message that is not a notify (the answer to the request in flight).
    func response() async -> ECP2Message? {
        while let message = await next() {
            if case .response = message.kind { return message }
        }
        return nil
    }

    func send(_ message: ECP2Message) async throws { try await connection.send(text: message.serialized()) }

    /// Reads the challenge and answers it with `key`'s derivation; the response.
    func authenticate(key: String = ECP2Authentication.key) async throws -> ECP2Message? {
        let challenge = await next()
        #expect(challenge?.kind == .notify("authenticate"))
        let text = try #require(challenge?["param-challenge"])
        let answer = ECP2Authentication.response(challenge: text, key: key, sha1: Digest.sha1)
        try await send(.request("authenticate", id: "1", ["param-response": answer]))
        return await response()
    }
}

@Suite("Simulated Roku: ECP-2", .serialized)
struct RokuECP2Tests {
    static let options = RokuSimulatorOptions(host: "127.0.0.1", port: 0, ecp2: true)

    @Test("a wrong challenge answer is refused with 401 and the session closed")
    func wrongAuthentication() async throws {
        try await withRoku(Self.options) { sim, _, log in
            let client = try await ECP2TestClient.connect(sim)
            let refused = try await client.authenticate(key: "00000000-0000-0000-0000-000000000000")
            #expect(refused?.status == 401)
            #expect(await client.next() == nil)
            let reason = await client.connection.closed()
            #expect(reason.code == WebSocketCloseCode.policyViolation)
            let entries = log.entries.filter { $0["kind"] == "ecp2-auth" }
            #expect(entries.count == 1 && entries.first?["refused"] == "wrong response")
        }
    }

    @Test("requests before authentication are refused; after it, queries answer base64 XML")
    func queries() async throws {
        try await withRoku(Self.options) { sim, _, _ in
            let client = try await ECP2TestClient.connect(sim)
            _ = await client.next()  // the challenge
            try await client.send(.request("key-press", id: "5", ["param-key": "Home"]))
            #expect(await client.response()?.status == 401)
            try await client.send(.request("authenticate", id: "1", ["param-response": "nope"]))
            #expect(await client.response()?.status == 401)

            let second = try await ECP2TestClient.connect(sim)
            #expect(try await second.authenticate()?.status == 200)
            try await second.send(.request("query-device-info", id: "2"))
            let info = try #require(await second.response())
            #expect(info.kind == .response("query-device-info", id: "2"))
            let xml = String(decoding: try #require(try info.content()), as: UTF8.self)
            #expect(xml.contains("<serial-number>\(sim.serial)</serial-number>"))
            try await second.send(.request("query-media-player", id: "3"))
            #expect(try await second.response()?.content() != nil)
            try await second.send(.request("query-nonsense", id: "4"))
            #expect(await second.response()?.status == 400)
            #expect(sim.ecp2SessionCount == 1)
        }
    }

    @Test("events: a /sim/state change and an HTTP volume key are pushed to a subscribed session")
    func events() async throws {
        try await withRoku(Self.options) { sim, client, _ in
            let session = try await ECP2TestClient.connect(sim)
            #expect(try await session.authenticate()?.status == 200)
            try await session.send(
                .request(
                    "request-events", id: "2",
                    ["param-events": "+power-mode-changed,+volume-changed,+plugin-ui-run,+media-player-state-changed"]))
            #expect(await session.response()?.isSuccess == true)

            #expect(try await client.post("/sim/state", #"{"app":"12"}"#).status == 200)
            let run = await session.next()
            #expect(run?.kind == .notify("plugin-ui-run") && run?["param-channel-id"] == "12")
            let media = await session.next()
            #expect(media?.kind == .notify("media-player-state-changed"))
            #expect(media?["param-media-player-state"] == "play")

            #expect(try await client.post("/keypress/VolumeUp").status == 200)
            let volume = await session.next()
            #expect(volume?.kind == .notify("volume-changed") && volume?["param-volume"] == "16")
            #expect(volume?["param-mute"] == "false")

            try sim.apply(["power": "standby"])
            var modes: [String] = []
            while let next = await session.next() {
                if case .notify("power-mode-changed") = next.kind { modes.append(next["param-power-mode"] ?? "") }
                if !modes.isEmpty { break }
            }
            #expect(modes == ["ready"])
        }
    }

    @Test("Limited mode: HTTP keys are refused, ECP-2 keys and launches work")
    func limitedMode() async throws {
        var options = Self.options
        options.limited = true
        try await withRoku(options) { sim, client, log in
            #expect(try await client.post("/keypress/Home").status == 403)
            let session = try await ECP2TestClient.connect(sim)
            #expect(try await session.authenticate()?.status == 200)
            try await session.send(.request("key-press", id: "2", ["param-key": "Lit_%E2%82%AC"]))
            #expect(await session.response()?.status == 200)
            try await session.send(
                .request(
                    "launch", id: "3",
                    ["param-channel-id": "837", "param-params": #"{"contentId":"abc","mediaType":"movie"}"#]))
            #expect(await session.response()?.status == 200)
            #expect(sim.state.appID == "837" && sim.state.text == "€")
            // The session's writer logs a request once its answer is written: it may come a
            // moment after the answer did.
            let launch = await log.waitFor { $0["kind"] == "launch" }
            #expect(launch?["contentId"] == "abc" && launch?["via"] == "ecp-2")
        }
    }

    @Test("without ECP-2 (default, or switched off) the upgrade is answered 404")
    func disabled() async throws {
        try await withRoku { sim, _, _ in
            await expectRefused(sim)
        }
        try await withRoku(Self.options) { sim, _, _ in
            let session = try await ECP2TestClient.connect(sim)
            #expect(try await session.authenticate()?.status == 200)
            sim.setECP2(false)
            let reason = await session.connection.closed()
            #expect(reason.code == WebSocketCloseCode.goingAway)
            await expectRefused(sim)
        }
    }

    private func expectRefused(_ sim: RokuSimulator) async {
        var status: Int?
        do {
            _ = try await ECP2TestClient.connect(sim)
        } catch let error as WebSocketError {
            status = error.status
        } catch {}
        #expect(status == 404)
    }
}
