import MQTTInterface
import Net
import Support
import TVModel
import Wire

extension BridgeService {
    /// `<base>/bridge/info`: version, uptime, TV count, log level, the effective configuration
    /// without secrets (README › MQTT topics and commands).
    func publishInfo() async {
        let fields: [BridgeInfo.Field: JSONValue] = [
            .version: .string(TV2MQTTVersion.current),
            .startedAt: .string(isoTimestamp(startedAt, fractional: false)),
            .uptime: .integer(Int64(LoopClock.current.wallSeconds - startedAt)),
            .tvCount: .integer(Int64(await registry.ids.count)),
            .logLevel: .string(threshold.level.name),
            .config: configuration.effectiveJSON(vendors: context.vendors, stateDirectory: stateDirectory),
        ]
        let info = JSONValue.object(
            Dictionary(uniqueKeysWithValues: fields.map { ($0.key.rawValue, $0.value) }))
        await context.publisher.setRetained(
            context.topics.bridgeInfo, info.serializedBytes(), category: .bridge)
    }

    /// `<base>/bridge/tvs`: one entry per TV (README › MQTT topics and commands).
    func publishTVList() async {
        var list: [JSONValue] = []
        for agent in await registry.agents() {
            let description = await agent.description
            let identity = description.identity
            list.append([
                "id": .string(identity.id.rawValue), "name": .string(identity.name),
                "kind": .string(identity.kind.rawValue),
                "model": .optional(identity.model ?? identity.modelID),
                "host": .string(identity.host), "macs": .array(identity.macs.map(JSONValue.string)),
                "online": .bool(await agent.snapshot.reachable),
            ])
        }
        list.sort { ($0["id"]?.stringValue ?? "") < ($1["id"]?.stringValue ?? "") }
        await context.publisher.setRetained(
            context.topics.bridgeTVs, JSONValue.array(list).serializedBytes(), category: .bridge)
    }

    /// Keeps `bridge/tvs` and the uptime in `bridge/info` current: the list when a TV's
    /// availability changes (coalesced), the info every ten minutes.
    func refreshInfoPeriodically() async {
        var lastInfo = LoopClock.current.now
        while !Task.isCancelled {
            if await context.tvListChanged.wait(timeout: .seconds(60)) {
                try? await EventLoop.sleep(for: .milliseconds(200))  // paced: a burst of changes, one publish
                await publishTVList()
            }
            if LoopClock.current.now - lastInfo >= .seconds(600) {
                lastInfo = LoopClock.current.now
                await publishInfo()
            }
        }
    }
}
