import Clients
import Net
import Support
import Wire

/// The Frame's art channel (`com.samsung.art-app`), on a simulator started with `frame`.
///
/// Admission is the remote channel's: on the TLS port a client needs a token this TV issued
/// for its name (or the `tokenless` pairing mode); there is no prompt on this channel, a
/// client without one gets `ms.channel.unauthorized`. Then `ms.channel.connect` and
/// `ms.channel.ready`, and `art_app_request`s are answered as a real Frame does
/// (`d2d_service_message` with a JSON-string `data`). Every change of the art mode — by a
/// request, a KEY_POWER click, `/sim/state` or power — is pushed to every open art channel
/// as `art_mode_changed` with `status` "on"/"off".
extension SamsungSimulator {
    static let artPath = "/api/v2/channels/com.samsung.art-app"
    /// How often an open art channel looks for a change to push.
    static let artWatchInterval: Duration = .milliseconds(50)

    func artChannel(_ request: HTTPRequest, stream: any ByteStream, secure: Bool, leftover: [UInt8]) async {
        guard options.frame else {
            if let bytes = try? Self.plain(404, "Not Found").encode() {
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
        let connect = SamsungRemoteEvents.connect(
            clientID: Self.randomID(), channelID: Self.randomID(), encodedName: encodedName, token: token,
            connectTime: Int64(wallClockSeconds() * 1000))
        try? await ws.send(text: connect.serialized())
        try? await ws.send(text: SamsungRemoteEvents.ready.serialized())

        // Pushes art_mode_changed whenever the art mode differs from what this client last heard.
        let initial = state.artMode
        let watcher = Task { [weak self] in
            var announced = initial
            while !Task.isCancelled {
                try? await EventLoop.sleep(for: Self.artWatchInterval)
                guard let self, !Task.isCancelled else { return }
                let now = self.state.artMode
                guard now != announced else { continue }
                announced = now
                try? await ws.send(
                    text: Self.artEvent(["event": "art_mode_changed", "status": .string(now ? "on" : "off")]))
            }
        }
        for await event in ws.incoming {
            guard case .text(let text) = event else {
                if case .closed = event { break }
                continue
            }
            for reply in handleArtMessage(text) { try? await ws.send(text: reply) }
        }
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
    func handleArtMessage(_ text: String) -> [String] {
        guard let message = try? JSONParser.parse(text, limits: JSONLimits(maxDepth: 16, maxBytes: 256 * 1024)),
            message["method"]?.stringValue == "ms.channel.emit",
            message["params"]?["event"]?.stringValue == "art_app_request",
            let data = message["params"]?["data"]?.stringValue,
            let request = try? JSONParser.parse(data, limits: JSONLimits(maxDepth: 8, maxBytes: 64 * 1024))
        else {
            return [SamsungRemoteEvents.error("unable to parse the art request").serialized()]
        }
        let id = String((request["request_id"]?.stringValue ?? request["id"]?.stringValue ?? "").prefix(64))
        var reply: [String: JSONValue] = ["id": .string(id), "request_id": .string(id)]
        switch request["request"]?.stringValue {
        case "get_artmode_status":
            reply["event"] = "artmode_status"
            reply["value"] = .string(state.artMode ? "on" : "off")
        case "set_artmode_status":
            let value = request["value"]?.stringValue
            guard value == "on" || value == "off" else { return [Self.artError(id, code: "-1")] }
            let applied = core.withLock { core -> Bool in
                record("art_mode", ["value": .string(value ?? ""), "via": "art_channel"])
                guard core.state.power == .on else { return false }
                core.state.artMode = value == "on"
                return true
            }
            guard applied else { return [Self.artError(id, code: "-3")] }
            reply["event"] = "set_artmode_status"
            reply["value"] = .string(value ?? "")
        case "api_version", "get_api_version":
            reply["event"] = .string(request["request"]?.stringValue ?? "")
            reply["version"] = "4.3.4.0"
        default:
            // Artwork, slideshow and matte requests are not simulated: a real TV's error shape.
            return [Self.artError(id, code: "-7")]
        }
        return [Self.artEvent(reply)]
    }

    /// `d2d_service_message` with the payload as a JSON string, as the TV sends it.
    static func artEvent(_ payload: [String: JSONValue]) -> String {
        let message: JSONValue = [
            "event": "d2d_service_message", "from": "host", "data": .string(JSONValue.object(payload).serialized()),
        ]
        return message.serialized()
    }

    static func artError(_ id: String, code: String) -> String {
        artEvent(["event": "error", "id": .string(id), "request_id": .string(id), "error_code": .string(code)])
    }
}
