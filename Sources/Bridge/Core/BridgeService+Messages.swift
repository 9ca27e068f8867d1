import Clients
import Drivers
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
                if message.text == "online" { spawn { await self.homeAssistantOnline() } }
            case nil:
                break
            }
        }
    }

    /// The one rule for retained messages on the topics the bridge acts on (commands and
    /// bridge requests, SPEC §4 and §10): a retained message replays at every reconnect (a
    /// retained `tv/remove` would remove the TV again at every start), so it is refused.
    static func retainedRefusal(_ what: String) -> String {
        "ignored a retained \(what) (retained \(what)s would replay on every reconnect); publish \(what)s without the retain flag and clear the retained message with an empty payload"
    }

    /// Parses, validates and queues a command; anything wrong becomes a `command_failed`
    /// event (and a response when a transaction was given) and nothing is sent (SPEC §4).
    func handleCommand(tv: String, property: String?, message: MQTTMessage) async {
        if message.payload.isEmpty {
            // An empty payload is how a retained message is deleted: nothing to do.
            context.logger.debug("ignoring an empty command", [("topic", message.topic)])
            return
        }
        let id = TVID(tv)
        func fail(_ reason: String, transaction: JSONValue? = nil) async {
            var data: [String: JSONValue] = ["topic": .string(message.topic)]
            if let property { data["property"] = .string(property) }
            await context.emit(BridgeEvent(.commandFailed, tv: tv, message: reason, data: data))
            if let transaction, let id {
                await context.respond(context.topics.response(id), ok: false, error: reason, transaction: transaction)
            }
        }
        if message.retain {
            await fail(Self.retainedRefusal("command"))
            return
        }
        guard let id, let controller = await registry.controller(id) else {
            await fail(
                "unknown TV '\(CommandParser.printable(tv))' (known: \(await registry.ids.map(\.rawValue).joined(separator: ", ")))"
            )
            return
        }
        let parsed: ParsedCommands
        do {
            parsed = try CommandParser.parse(property: property, payload: message.payload)
        } catch {
            await fail(error.message, transaction: error.transaction)
            return
        }
        for command in parsed.commands {
            do {
                try controller.driver.validate(command)
            } catch {
                await fail(error.message, transaction: parsed.transaction)
                return
            }
        }
        let job = CommandJob(commands: parsed.commands, transaction: parsed.transaction, topic: message.topic)
        if !controller.enqueue(job) {
            await fail(
                "the command queue of this TV is full (\(TVController.commandQueueLimit) commands wait for it); the TV is not keeping up, try again later",
                transaction: parsed.transaction)
        }
    }
}
