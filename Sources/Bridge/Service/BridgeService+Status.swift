import Drivers
import MQTTInterface
import Net
import Support
import TVModel
import Wire

/// What the status page reads and does: the bridge's own state (the retained values it
/// publishes) and its own command and request paths, never a second copy of either.
extension BridgeService {
    /// The bridge as the page shows it: version, uptime, broker, counts.
    public func statusBridge() async -> JSONValue {
        let agents = await registry.agents()
        var online = 0
        for agent in agents where await agent.snapshot.reachable { online += 1 }
        return [
            "version": .string(TV2MQTTVersion.current),
            "uptime_s": .integer(Int64(LoopClock.current.wallSeconds - startedAt)),
            // The address only: user and password are settings of their own, never in it.
            "broker": [
                "connected": .bool(await client.isConnected),
                "url": .string(configuration.mqtt.server.description),
            ],
            "counts": ["tvs": .integer(Int64(agents.count)), "online": .integer(Int64(online))],
            // The kinds the add-TV form offers, from the vendor list.
            "kinds": .array(registry.factory.vendors.map { .string($0.kind.rawValue) }),
        ]
    }

    /// The effective configuration, every secret masked (the one `bridge/info` publishes).
    public var statusConfiguration: JSONValue {
        configuration.effectiveJSON(vendors: context.vendors, stateDirectory: stateDirectory)
    }

    /// Every TV, sorted by id (see `statusTV`).
    public func statusTVs() async -> [JSONValue] {
        var list: [JSONValue] = []
        for id in await registry.ids {
            if let tv = await statusTV(id.rawValue) { list.append(tv) }
        }
        return list
    }

    /// One TV as the page shows it: identity, availability, pairing, what its selects offer,
    /// and the state document exactly as published on `<base>/<tv>/state`. No secret: whether
    /// the TV is paired, never its token or pin.
    public func statusTV(_ text: String) async -> JSONValue? {
        guard let id = TVID(text), let agent = await registry.agent(id) else { return nil }
        let description = await agent.description
        let identity = description.identity
        let capabilities = description.capabilities
        let state = await context.publisher.retainedPayload(context.topics.state(id)).flatMap {
            try? JSONParser.parse($0)
        }
        let paired = await registry.holdsSecrets(id)
        let pairing = !capabilities.pairing && !paired ? "not_needed" : paired ? "paired" : "not_paired"
        // The capabilities under their own names (as the state file keeps them), with the apps
        // as last described by name.
        var shown = capabilities
        if !description.apps.isEmpty { shown.apps = description.apps.map(\.name) }
        return [
            "id": .string(id.rawValue), "name": .string(identity.name),
            "kind": .string(identity.kind.rawValue),
            "manufacturer": .string(identity.manufacturer),
            "model": .optional(identity.model ?? identity.modelID),
            "address": .string(identity.host), "available": .bool(await agent.snapshot.reachable),
            "pairing": .string(pairing),
            "last_seen": await agent.lastSeen.map { .string(isoTimestamp($0)) } ?? .null,
            "capabilities": (try? JSONValueEncoder().encode(shown)) ?? [:],
            "controls": .array(capabilities.controls.map(\.statusJSON)),
            "state": state ?? .null,
        ]
    }

    /// A command for `tv`, as if published to `<base>/<tv>/set`: the same parser, planner and
    /// queue, the same `command_failed` event. The failure's message, or nil once queued.
    public func submitCommand(tv: String, payload: [UInt8]) async -> String? {
        await command(
            tv: tv, property: nil, payload: payload, topic: "\(context.topics.base)/\(tv)/set",
            retained: false)
    }

    /// A bridge request (`tv/add`, `tv/pair`, `tv/remove`…), as if published to
    /// `<base>/bridge/request/<action>` with `payload`: its data, or the error its response
    /// would carry. `requester` is who asked (the page's client), for `tv/add`'s rate.
    public func submitRequest(_ action: String, payload: [UInt8], from requester: Requester) async -> Result<
        JSONValue, StatusError
    > {
        let (request, plain) = Self.requestPayload(payload)
        do {
            return .success(try await perform(action, request: request, plain: plain, from: requester))
        } catch {
            context.logger.warning("request \(CommandParser.printable(action)) failed: \(error.message)")
            return .failure(StatusError(error.message))
        }
    }
}

/// Why a request from the status page failed: the message its MQTT response would carry.
public struct StatusError: Error, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
}

extension DeclaredControl {
    /// A control as the page draws it: its key (the state field and `set` member), name,
    /// platform and the values it takes.
    var statusJSON: JSONValue {
        [
            "key": .string(key), "name": .string(name), "platform": .string(platform.rawValue),
            "values": .array(values.map(JSONValue.string)),
        ]
    }
}
