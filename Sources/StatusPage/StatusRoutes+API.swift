import Bridge
import Clients
import Net
import Wire

/// `api/state` and the commands: the bridge's own state and its own paths.
extension StatusRoutes {
    /// Everything the page draws, in one document (see Sources/StatusPage/README.md).
    func state() async -> JSONValue {
        var bridge = await service.statusBridge()
        if case .object(var members) = bridge, case .object(var broker)? = members["broker"] {
            broker["history"] = .array(feed.brokerHistory)
            members["broker"] = .object(broker)
            bridge = .object(members)
        }
        let tvs = await service.statusTVs().map(feed.withLastError)
        return [
            "bridge": bridge, "tvs": .array(tvs), "discovery": feed.discovery,
            "config": service.statusConfiguration, "log": .array(feed.log), "events": .array(feed.events),
        ]
    }

    /// `POST api/tv/<id>/set|pair|remove`, `POST api/tv/add`: 202 once the bridge took it,
    /// 400 with the message its MQTT response or `command_failed` event carries.
    func command(_ path: Substring, body: [UInt8], from remote: SocketAddress) async -> HTTPResponse {
        let levels = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch levels.count == 3 && levels[0] == "tv" ? levels[2] : levels == ["tv", "add"] ? "add" : "" {
        case "set":
            if let error = await service.submitCommand(tv: levels[1], payload: body) {
                return Self.json(400, ["error": .string(error)])
            }
            return Self.json(202, ["ok": true])
        case "pair", "remove":
            return await request(
                "tv/\(levels[2])", JSONValue.object(["id": .string(levels[1])]).serializedBytes(), from: remote)
        case "add" where levels.count == 2:
            return await request("tv/add", body, from: remote)
        default:
            return Self.json(404, ["error": "not found"])
        }
    }

    /// Each client address is its own requester (`Requester`), the ingress gateway one.
    private func request(_ action: String, _ payload: [UInt8], from remote: SocketAddress) async -> HTTPResponse {
        switch await service.submitRequest(action, payload: payload, from: .statusPage(remote.canonicalIP)) {
        case .success(let data): return Self.json(202, ["ok": true, "data": data])
        case .failure(let error): return Self.json(400, ["error": .string(error.message)])
        }
    }
}
