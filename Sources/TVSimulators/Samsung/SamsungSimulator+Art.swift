import Clients
import Net
import Support
import Wire

/// The Frame's art channel (`com.samsung.art-app`), on a simulator started with `frame`.
///
/// Admission is the remote channel's: on the TLS port a client needs a token this TV issued
/// for its name (or the `tokenless` pairing mode); there is no prompt on this channel, a
/// client without one gets `ms.channel.unauthorized`. Then `ms.channel.connect` and
/// `ms.channel.ready`, and `art_app_request`s are answered as a real Frame of the chosen
/// generation does (`SamsungArtFirmware`: `d2d_service_message` with a JSON-string `data`).
/// Every change of the art mode — by a request, a KEY_POWER click, `/sim/state` or power —
/// is pushed to every open art channel as `art_mode_changed` with `status` "on"/"off".
extension SamsungSimulator {
    static let artPath = "/api/v2/channels/com.samsung.art-app"
    /// How often an open art channel looks for a change to push.
    static let artWatchInterval: Duration = .milliseconds(50)

    /// One client's art channel: who it is, who speaks for the TV, what a latched channel says.
    struct ArtConnection: Sendable {
        var clientID: String
        /// `from` on the TV's messages: the host's client id (2019) or "host".
        var from: String
        /// The value a `latched` channel keeps answering.
        var latched: Bool?
    }

    func artChannel(_ request: HTTPRequest, stream: any ByteStream, secure: Bool, leftover: [UInt8]) async {
        guard options.frame else {
            if let bytes = try? SimResponse.notFound.encode() {
                try? await stream.write(bytes, deadline: .now + .seconds(2))
            }
            return
        }
        guard let (ws, encodedName, name, token) = await Self.acceptChannel(request, stream: stream, leftover: leftover)
        else {
            return
        }
        guard artAdmits(secure: secure, token: token, name: name) else {
            record("art_channel", ["result": "unauthorized", "client": .string(name)])
            try? await ws.send(text: SamsungRemoteEvents.unauthorized.serialized())
            _ = try? await ws.close(code: 1000, reason: "unauthorized")
            return
        }
        let firmware = options.artFirmware
        var client = ArtConnection(
            clientID: Self.randomID(), from: firmware == .y2019 ? Self.randomID() : "host", latched: nil)
        var connect = SamsungRemoteEvents.connect(
            clientID: client.clientID, channelID: client.clientID, encodedName: encodedName, token: token,
            connectTime: Int64(wallClockSeconds() * 1000))
        if firmware == .y2019, case .object(var data)? = connect["data"], case .array(var clients)? = data["clients"] {
            // The TV's own client, as the 2019 capture lists it.
            clients.insert(["deviceName": "Smart Device", "id": .string(client.from), "isHost": true], at: 0)
            data["clients"] = .array(clients)
            connect = ["data": .object(data), "event": "ms.channel.connect"]
        }
        try? await ws.send(text: connect.serialized())
        try? await ws.send(text: SamsungRemoteEvents.ready.serialized())

        // Pushes art_mode_changed whenever the art mode differs from what this client last heard.
        let initial = state.artMode
        let from = client.from
        let watcher = Task { [weak self] in
            var announced = initial
            while !Task.isCancelled {
                try? await EventLoop.sleep(for: Self.artWatchInterval, clock: .system)
                guard let self, !Task.isCancelled else { return }
                let now = self.state.artMode
                guard now != announced else { continue }
                announced = now
                try? await ws.send(
                    text: Self.artEvent(
                        ["event": "art_mode_changed", "status": .string(now ? "on" : "off")], from: from))
            }
        }
        let clientID = client.clientID
        core.withLock { $0.artClients[clientID] = ws }
        for await event in ws.incoming {
            guard case .text(let text) = event else {
                if case .closed = event { break }
                continue
            }
            if let relayed = Self.relay(text, from: clientID) {
                let others = core.withLock { $0.artClients.filter { $0.key != clientID }.map(\.value) }
                for other in others { try? await other.send(text: relayed) }
                continue
            }
            for reply in handleArtMessage(text, client: &client) { try? await ws.send(text: reply) }
        }
        _ = core.withLock { $0.artClients.removeValue(forKey: clientID) }
        watcher.cancel()
        await watcher.value
    }

    private func artAdmits(secure: Bool, token: String?, name: String) -> Bool {
        guard secure else { return true }
        if options.pairing == .tokenless { return true }
        return core.withLock { core in
            core.tokens.contains { $0.token == token && $0.client == name }
        }
    }

    /// One message from a client; the replies to send back.
    func handleArtMessage(_ text: String, client: inout ArtConnection) -> [String] {
        guard let message = try? JSONParser.parse(text, limits: JSONLimits(maxDepth: 16, maxBytes: 256 * 1024)),
            message["method"]?.stringValue == "ms.channel.emit",
            message["params"]?["event"]?.stringValue == "art_app_request",
            let data = message["params"]?["data"]?.stringValue,
            let request = try? JSONParser.parse(data, limits: JSONLimits(maxDepth: 8, maxBytes: 64 * 1024))
        else {
            return [SamsungRemoteEvents.error("unable to parse the art request").serialized()]
        }
        let fault = core.withLock { $0.artFault }
        if fault == .unanswered { return [] }
        let firmware = options.artFirmware
        let id = String((request["request_id"]?.stringValue ?? request["id"]?.stringValue ?? "").prefix(64))
        let name = request["request"]?.stringValue ?? ""
        // 2019 firmware echoes `id` and names the client; 2023+ names the reply after the request.
        var reply: [String: JSONValue] =
            firmware == .y2019
            ? ["id": .string(id), "target_client_id": .string(client.clientID)] : ["request_id": .string(id)]
        switch name {
        case "get_artmode_status":
            if fault == .refused { return [artError(id, code: "-1", client: client)] }
            var value = state.artMode
            if fault == .latched {
                // Logged when it latches: a test knows what the connection will keep saying.
                if client.latched == nil { record("art_latched", ["value": .string(value ? "on" : "off")]) }
                value = client.latched ?? value
                client.latched = value
            }
            reply["event"] = .string(firmware.statusReplyName)
            reply["value"] = .string(value ? "on" : "off")
        case "set_artmode_status":
            let value = request["value"]?.stringValue
            guard value == "on" || value == "off" else { return [artError(id, code: "-1", client: client)] }
            let applied = core.withLock { core -> Bool in
                record("art_mode", ["value": .string(value ?? ""), "via": "art_channel"])
                guard core.state.power == .on else { return false }
                core.state.artMode = value == "on"
                return true
            }
            guard applied else { return [artError(id, code: "-3", client: client)] }
            reply["event"] = "set_artmode_status"
            reply["value"] = .string(value ?? "")
        case "api_version", "get_api_version":
            guard let version = firmware.apiVersion(for: name) else {
                return [artError(id, code: "-7", client: client)]
            }
            reply["event"] = .string(name)
            reply["version"] = .string(version)
        default:
            // Artwork, slideshow and matte requests are not simulated: a real TV's error shape.
            return [artError(id, code: "-7", client: client)]
        }
        return [Self.artEvent(reply, from: client.from)]
    }

    /// A client's `ms.channel.emit` to "broadcast" (or "all", "clients"), as the channel server
    /// passes it to the other clients: the event and data, `from` the sender's client id.
    static func relay(_ text: String, from clientID: String) -> String? {
        guard let message = try? JSONParser.parse(text, limits: JSONLimits(maxDepth: 16, maxBytes: 256 * 1024)),
            message["method"]?.stringValue == "ms.channel.emit",
            let to = message["params"]?["to"]?.stringValue, ["broadcast", "all", "clients"].contains(to),
            let event = message["params"]?["event"]
        else { return nil }
        let relayed: JSONValue = [
            "event": event, "data": message["params"]?["data"] ?? .null, "from": .string(clientID),
        ]
        return relayed.serialized()
    }

    /// `d2d_service_message` with the payload as a JSON string, as the TV sends it.
    static func artEvent(_ payload: [String: JSONValue], from: String = "host") -> String {
        let message: JSONValue = [
            "event": "d2d_service_message", "from": .string(from),
            "data": .string(JSONValue.object(payload).serialized()),
        ]
        return message.serialized()
    }

    func artError(_ id: String, code: String, client: ArtConnection) -> String {
        Self.artEvent(
            ["event": "error", "id": .string(id), "request_id": .string(id), "error_code": .string(code)],
            from: client.from)
    }

    /// Makes the art channel misbehave (nil: answer as a real Frame does).
    public func setArtFault(_ fault: SamsungArtFault?) {
        core.withLock { $0.artFault = fault }
    }
}
