import Clients
import MQTTInterface
import Net
import Support
import TVModel
import Wire

extension BridgeService {
    static let requestActions = BridgeRequest.allCases.map(\.rawValue)

    /// `<base>/bridge/request/<action>` → `<base>/bridge/response/<action>` (README › Bridge
    /// requests, the zigbee2mqtt convention):
    /// `{"status":"ok"|"error","data":{},"error":…,"transaction":…}`.
    func handleRequest(_ action: String, _ message: MQTTMessage) async {
        let responseTopic = context.topics.bridgeResponse(action)
        let (request, plain) = Self.requestPayload(message.payload)
        let transaction = request["transaction"]
        if message.retain {
            let reason = Self.retainedRefusal("request")
            context.logger.warning(
                "request \(CommandParser.printable(action)) refused: \(reason)", [("topic", message.topic)])
            await context.respond(responseTopic, ok: false, error: reason, transaction: transaction)
            return
        }
        do {
            let data = try await perform(action, request: request, plain: plain, from: .mqtt)
            await context.respond(responseTopic, ok: true, data: data, transaction: transaction)
        } catch {
            context.logger.warning("request \(action) failed: \(error.message)")
            await context.respond(
                responseTopic, ok: false, error: error.message, transaction: transaction)
        }
    }

    /// A request's payload: a JSON object's members, or the plain text (a JSON string or not JSON).
    static func requestPayload(_ payload: [UInt8]) -> (members: [String: JSONValue], plain: String?) {
        guard !payload.isEmpty else { return ([:], nil) }
        switch try? JSONParser.parse(payload, limits: JSONLimits(maxDepth: 4, maxBytes: 64 * 1024)) {
        case .object(let members)?: return (members, nil)
        case .string(let text)?: return ([:], text)
        default: return ([:], String(validating: payload, as: UTF8.self))
        }
    }

    struct RequestError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    func perform(_ action: String, request: [String: JSONValue], plain: String?, from requester: Requester)
        async throws(RequestError)
        -> JSONValue
    {
        switch BridgeRequest(rawValue: action) {
        case .discover:
            let before = await registry.ids.count
            guard await finder.discoverNow() else {
                throw RequestError("a discovery is already running; ask again once it has answered")
            }
            let after = await registry.ids.count
            return ["tvs": .integer(Int64(after)), "new": .integer(Int64(max(0, after - before)))]
        case .tvRemove:
            let id = try await knownTV(request)
            _ = await registry.remove(id)
            await context.publisher.clearRetained(context.topics.availability(id))
            await context.publisher.clearRetained(context.topics.state(id))
            await context.publisher.clearRetained(context.topics.appIcon(id))
            await publishInfo()
            return ["id": .string(id.rawValue)]
        case .tvRename:
            let id = try await knownTV(request)
            guard let name = request["name"]?.stringValue, PrintableName.isValid(name) else {
                throw RequestError(
                    "tv/rename needs a \"name\" of 1 to \(PrintableName.maxLength) printable characters")
            }
            await registry.agent(id)?.rename(name)
            return ["id": .string(id.rawValue), "name": .string(name)]
        case .tvPair:
            let id = try await knownTV(request)
            guard let agent = await registry.agent(id) else { throw RequestError("unknown TV") }
            // `pin`: the PIN the TV shows (a TV that pairs by PIN); a secret, never logged.
            let pin = request["pin"].map { $0.stringValue ?? "" }
            if let pin {
                let form = registry.factory.vendors.vendor(await agent.description.identity.kind)?.pin
                guard form?.accepts(pin) ?? PairingPIN.isPlausible(pin) else {
                    throw RequestError(form?.refusal ?? PairingPIN.plausibleRefusal)
                }
            }
            do {
                if let pin { try await agent.driver.pair(pin: pin) } else { try await agent.driver.pair() }
            } catch {
                throw RequestError(error.message)
            }
            return ["id": .string(id.rawValue)]
        case .tvAdd:
            return try await addTV(request, plain: plain, from: requester)
        case .tvAddHost:
            return try setAddTVHost(request, plain: plain)
        case .healthCheck:
            let agents = await registry.agents()
            var online = 0
            for agent in agents where await agent.snapshot.reachable { online += 1 }
            return [
                "healthy": .bool(await client.isConnected), "tvs": .integer(Int64(agents.count)),
                "online": .integer(Int64(online)),
                "uptime": .integer(Int64(LoopClock.current.wallSeconds - startedAt)),
            ]
        case .logLevel:
            let text = request["log_level"]?.stringValue ?? request["value"]?.stringValue ?? plain ?? ""
            guard let level = LogLevel(name: text.trimmingWhitespace) else {
                throw RequestError("log_level must be one of trace, debug, info, warning, error")
            }
            threshold.level = level
            context.logger.info("log level set to \(level)")
            await publishInfo()
            return ["log_level": .string(level.name)]
        case nil:
            throw RequestError(
                "unknown request '\(CommandParser.printable(action))' (known: \(Self.requestActions.joined(separator: ", ")))"
            )
        }
    }

    private func knownTV(_ request: [String: JSONValue]) async throws(RequestError) -> TVID {
        guard let text = request["id"]?.stringValue else {
            throw RequestError("the request needs an \"id\"")
        }
        guard let id = TVID(text), await registry.agent(id) != nil else {
            throw RequestError("unknown TV '\(CommandParser.printable(text))'")
        }
        return id
    }
}

extension String {
    var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
