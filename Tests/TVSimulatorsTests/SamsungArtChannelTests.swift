import Clients
import TVSimulators
import Testing
import Wire

/// `tvsim samsung --frame`: the art channel (`com.samsung.art-app`), its answers and pushed
/// events, and `/sim/state` `art_mode` and `input`.
@Suite("Samsung simulator: The Frame's art channel")
struct SamsungArtChannelTests {
    static let artPath = "/api/v2/channels/com.samsung.art-app"

    /// A token the simulator issued for "tv2mqtt" (the remote channel's pairing).
    func pairedToken(_ sim: SamsungSimulator) async throws -> String {
        let remote = try await RemoteChannel.open(sim)
        let connect = await remote.event("ms.channel.connect")
        await remote.close()
        let token = connect?["data"]?["token"]
        let text = token?.stringValue ?? token?.intValue.map(String.init)
        return try #require(text)
    }

    static func request(_ fields: [String: JSONValue]) -> JSONValue {
        [
            "method": "ms.channel.emit",
            "params": [
                "event": "art_app_request", "to": "host", "data": .string(JSONValue.object(fields).serialized()),
            ],
        ]
    }

    /// The inner payloads of every d2d_service_message received so far.
    static func payloads(_ channel: RemoteChannel) -> [JSONValue] {
        channel.received.compactMap { event in
            guard event["event"] == "d2d_service_message", let data = event["data"]?.stringValue else { return nil }
            return try? JSONParser.parse(data)
        }
    }

    /// The first payload named `name` (with `requestID`, when given), waiting up to 3 s for it.
    static func payload(_ channel: RemoteChannel, _ name: String, requestID: String? = nil) async -> JSONValue? {
        for _ in 0..<300 {
            let found = payloads(channel).first { payload in
                payload["event"]?.stringValue == name
                    && (requestID.map { payload["request_id"] == .string($0) } ?? true)
            }
            if let found { return found }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    @Test("with the remote channel's token: connect, ready, get and set art mode, art_mode logged and pushed")
    func getAndSet() async throws {
        try await withSamsung(samsungOptions(frame: true)) { (sim, _, log) async throws in
            let token = try await pairedToken(sim)
            let art = try await RemoteChannel.open(sim, token: token, path: Self.artPath)
            #expect(await art.event("ms.channel.connect") != nil)
            #expect(await art.event("ms.channel.ready") != nil)
            try await art.send(Self.request(["request": "get_artmode_status", "id": "g1"]))
            let status = await Self.payload(art, "artmode_status")
            #expect(status?["value"] == "off")
            #expect(status?["id"] == "g1")
            try await art.send(Self.request(["request": "set_artmode_status", "value": "on", "id": "s1"]))
            let set = await Self.payload(art, "set_artmode_status")
            #expect(set?["value"] == "on")
            #expect(set?["id"] == "s1")
            let changed = await Self.payload(art, "art_mode_changed")
            #expect(changed?["status"] == "on")
            #expect(sim.state.artMode)
            let logged = log.entries.filter { $0["kind"] == "art_mode" }
            #expect(logged.first?["value"] == "on")
            await art.close()
        }
    }

    @Test("2019 shape: artmode_status with id, value and target_client_id, from the host id ms.channel.connect lists")
    func shape2019() async throws {
        try await withSamsung(samsungOptions(frame: true)) { (sim, _, _) async throws in
            let art = try await RemoteChannel.open(sim, token: try await pairedToken(sim), path: Self.artPath)
            let connect = await art.event("ms.channel.connect")
            let host = connect?["data"]?["clients"]?.arrayValue?.first { $0["isHost"] == true }?["id"]
            #expect(host?.stringValue != nil)
            try await art.send(Self.request(["request": "get_artmode_status", "id": "g1", "request_id": "g1"]))
            let status = await Self.payload(art, "artmode_status")
            #expect(status?["id"] == "g1")
            #expect(status?["request_id"] == nil)
            #expect(status?["target_client_id"]?.stringValue != nil)
            let message = art.received.first { $0["event"] == "d2d_service_message" }
            #expect(message?["from"] == host)
            try await art.send(Self.request(["request": "api_version", "id": "v1"]))
            #expect(await Self.payload(art, "error")?["error_code"] == "-7")
            try await art.send(Self.request(["request": "get_api_version", "id": "v2"]))
            #expect(await Self.payload(art, "get_api_version")?["version"] == "0.97")
            await art.close()
        }
    }

    @Test(
        "2023 and 2025 shapes: replies named after the request with request_id; 2025 REST says standby while art shows",
        arguments: [SamsungArtFirmware.y2023, .y2025])
    func shapesNamedAfterRequest(_ firmware: SamsungArtFirmware) async throws {
        var options = samsungOptions(frame: true)
        options.artFirmware = firmware
        try await withSamsung(options) { (sim, client, _) async throws in
            let art = try await RemoteChannel.open(sim, token: try await pairedToken(sim), path: Self.artPath)
            #expect(await art.event("ms.channel.ready") != nil)
            try await art.send(Self.request(["request": "get_artmode_status", "id": "g1", "request_id": "g1"]))
            let status = await Self.payload(art, "get_artmode_status")
            #expect(status?["request_id"] == "g1")
            #expect(status?["value"] == "off")
            #expect(status?["target_client_id"] == nil)
            let names = Self.payloads(art).map { $0["event"] }
            #expect(!names.contains("artmode_status"))
            let message = art.received.first { $0["event"] == "d2d_service_message" }
            #expect(message?["from"] == "host")
            try await art.send(Self.request(["request": "api_version", "id": "v1", "request_id": "v1"]))
            #expect(await Self.payload(art, "api_version")?["version"]?.stringValue?.isEmpty == false)
            try sim.apply(["art_mode": "on"])
            let device = try JSONParser.parse(try await client.get("/api/v2/").body)["device"]
            #expect(device?["PowerState"] == (firmware == .y2025 ? "standby" : "on"))
            #expect(device?["model"] == (firmware == .y2025 ? "25_PTM_FTV" : "20_MUSEL_UHD_FRAME"))
            await art.close()
        }
    }

    @Test("faults: unanswered requests get no reply; latched replies keep the connection's first value")
    func faults() async throws {
        var options = samsungOptions(frame: true)
        options.artFirmware = .y2023
        try await withSamsung(options) { (sim, _, _) async throws in
            let token = try await pairedToken(sim)
            sim.setArtFault(.latched)
            let art = try await RemoteChannel.open(sim, token: token, path: Self.artPath)
            #expect(await art.event("ms.channel.ready") != nil)
            try await art.send(Self.request(["request": "get_artmode_status", "request_id": "a"]))
            #expect(await Self.payload(art, "get_artmode_status")?["value"] == "off")
            try sim.apply(["art_mode": "on"])
            #expect(await Self.payload(art, "art_mode_changed")?["status"] == "on")
            try await art.send(Self.request(["request": "get_artmode_status", "request_id": "b"]))
            #expect(await Self.payload(art, "get_artmode_status", requestID: "b") != nil)
            let replies = Self.payloads(art).filter { $0["event"] == "get_artmode_status" }
            let values = replies.map { $0["value"] }
            #expect(values == ["off", "off"])
            sim.setArtFault(.unanswered)
            try await art.send(Self.request(["request": "get_artmode_status", "request_id": "c"]))
            try await Task.sleep(for: .milliseconds(300))
            let statusReplies = Self.payloads(art).filter { $0["event"] == "get_artmode_status" }
            #expect(statusReplies.count == 2)
            await art.close()
        }
    }

    @Test("/sim/state art_mode \"on\"/\"off\" is pushed as art_mode_changed; input is another name for source")
    func simState() async throws {
        try await withSamsung(samsungOptions(frame: true)) { (sim, _, _) async throws in
            let token = try await pairedToken(sim)
            let art = try await RemoteChannel.open(sim, token: token, path: Self.artPath)
            #expect(await art.event("ms.channel.ready") != nil)
            try sim.apply(["art_mode": "on"])
            let changed = await Self.payload(art, "art_mode_changed")
            #expect(changed?["status"] == "on")
            try sim.apply(["input": "HDMI3"])
            #expect(sim.state.source == "HDMI3")
            #expect(sim.state.json["input"] == "HDMI3")
            #expect(throws: SimulatorError.self) { try sim.apply(["art_mode": "maybe"]) }
            await art.close()
        }
    }

    @Test("without a token it issued: ms.channel.unauthorized, then the channel closes (no prompt)")
    func unauthorized() async throws {
        try await withSamsung(samsungOptions(frame: true)) { (sim, _, log) async throws in
            let art = try await RemoteChannel.open(sim, token: "12345678", path: Self.artPath)
            #expect(await art.event("ms.channel.unauthorized") != nil)
            #expect(await art.waitClosed() != nil)
            let pairings = log.entries.filter { $0["kind"] == "pairing" }
            #expect(pairings.isEmpty)
            await art.close()
        }
    }

    @Test("a TV that is not a Frame answers the art channel's upgrade with 404")
    func notFrame() async throws {
        try await withSamsung(samsungOptions(frame: false)) { (sim, _, _) async throws in
            await #expect(throws: WebSocketError.self) {
                _ = try await RemoteChannel.open(sim, path: Self.artPath)
            }
        }
    }

    @Test("malformed requests get ms.error, unknown ones an error payload, set in standby is refused")
    func badRequests() async throws {
        try await withSamsung(samsungOptions(frame: true)) { (sim, _, _) async throws in
            let token = try await pairedToken(sim)
            let art = try await RemoteChannel.open(sim, token: token, path: Self.artPath)
            #expect(await art.event("ms.channel.ready") != nil)
            try await art.connection.send(text: "{not json")
            #expect(await art.event("ms.error") != nil)
            try await art.send(Self.request(["request": "get_content_list", "id": "c"]))
            let error = await Self.payload(art, "error")
            #expect(error?["error_code"] == "-7")
            try sim.apply(["power": "standby"])
            try await art.send(Self.request(["request": "set_artmode_status", "value": "on", "id": "x"]))
            try await Task.sleep(for: .milliseconds(300))
            #expect(!sim.state.artMode)
            await art.close()
        }
    }
}
