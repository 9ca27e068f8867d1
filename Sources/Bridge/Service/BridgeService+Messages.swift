import Clients
import Drivers
import Support
import TVModel
import Wire

extension BridgeService {
    /// Every message from the broker, in order.
    func handleMessages() async {
        for await message in client.messages {
            if sweep.collect(message) { continue }
            switch context.topics.route(message.topic) {
            case .command(let tv, let property):
                await handleCommand(tv: tv, property: property, message: message)
            case .request(let action):
                spawn { await self.handleRequest(action, message) }
            case .homeAssistantStatus:
                if message.text == "online" { homeAssistantOnline() }
            case nil:
                break
            }
        }
    }

    /// The one rule for retained messages on the topics the bridge acts on (commands and
    /// bridge requests, README › Security): a retained message replays at every reconnect (a
    /// retained `tv/remove` would remove the TV again at every start), so it is refused.
    static func retainedRefusal(_ what: String) -> String {
        "ignored a retained \(what) (retained \(what)s would replay on every reconnect); publish \(what)s without the retain flag and clear the retained message with an empty payload"
    }

    /// A command's path: routed here, parsed (`CommandParser`), then handed to its
    /// TV's agent, which plans it with the driver (the one check against the TV) and
    /// queues the plan for its command worker, which executes it. Anything wrong becomes a
    /// `command_failed` event (and a response when a transaction was given) and nothing is sent.
    func handleCommand(tv: String, property: String?, message: MQTTMessage) async {
        if message.payload.isEmpty {
            // An empty payload is how a retained message is deleted: nothing to do.
            context.logger.debug("ignoring an empty command", [("topic", message.topic)])
            return
        }
        await command(
            tv: tv, property: property, payload: message.payload, topic: message.topic, retained: message.retain)
    }

    /// The one command path after routing, for MQTT and the status page alike: the failure's
    /// message (the one `command_failed` carries), or nil once the commands are queued.
    @discardableResult
    func command(tv: String, property: String?, payload: [UInt8], topic: String, retained: Bool) async -> String? {
        let unparsed = CommandOrigin(topic: topic, property: property, transaction: nil)
        if retained {
            let message = Self.retainedRefusal("command")
            await context.commandFailed(message, tv: tv, origin: unparsed)
            return message
        }
        guard let id = TVID(tv), let agent = await registry.agent(id) else {
            let message =
                "unknown TV '\(CommandParser.printable(tv))' (known: \(await registry.ids.map(\.rawValue).joined(separator: ", ")))"
            await context.commandFailed(message, tv: tv, origin: unparsed)
            return message
        }
        Trace.mark(.routed)
        let parsed: ParsedCommands
        do {
            parsed = try CommandParser.parse(property: property, payload: payload, controls: controls)
        } catch {
            let origin = CommandOrigin(topic: topic, property: property, transaction: error.transaction)
            await context.commandFailed(error.message, tv: tv, origin: origin)
            return error.message
        }
        Trace.mark(.parsed)
        let origin = CommandOrigin(topic: topic, property: property, transaction: parsed.transaction)
        return await agent.submit(parsed.checked, origin: origin)
    }
}
