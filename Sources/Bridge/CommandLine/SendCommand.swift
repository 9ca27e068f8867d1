import Drivers
import Support
import TVModel
import Wire

/// `tv2mqtt send TV COMMAND [ARG]`: one command, straight to the TV, no MQTT. TV is an id or
/// name from the state directory, or an IP address. Exit 0 when the TV took it, 1 when not.
enum SendCommand {
    static let specs = ConfigurationLoader.runFlags.filter {
        ["config", "state-dir", "log-level", "wol-target"].contains($0.name)
    }

    static func main(
        _ arguments: [String], environment: [String: String], makeFactory: DriverFactoryMaker
    )
        async throws(ConfigError) -> Int32
    {
        guard
            let parsed = try CommandLineTool.parse(
                arguments, specs: specs, usage: "tv2mqtt send [OPTIONS] TV COMMAND [ARG]",
                summary:
                    "Sends one command to a TV without MQTT. TV is an id or name the bridge knows (state directory) or an address, [roku:|samsung:]IP[:PORT]. COMMAND is one of power, key, app, input, text, volume, mute, launch; for example: send living_room key home; send 192.168.1.50 power off."
            )
        else { return 0 }
        guard parsed.positionals.count == 2 || parsed.positionals.count == 3 else {
            throw ConfigError("send needs TV COMMAND [ARG] (see 'tv2mqtt send --help')")
        }
        let (target, property) = (parsed.positionals[0], parsed.positionals[1])
        let argument = parsed.positionals.count == 3 ? parsed.positionals[2] : ""
        let configuration = try CommandLineTool.configuration(parsed, environment: environment)
        let logger = CommandLineTool.logger(configuration)
        let factory = makeFactory(configuration, logger)
        let commands: [TVCommand]
        do {
            commands = try CommandParser.parse(property: property, payload: Array(argument.utf8)).commands
        } catch {
            throw ConfigError(error.message)
        }
        let store = StateStore(
            directory: StateStore.resolveDirectory(configuration.stateDir), logger: logger)
        let known = store.load().tvs
        let persisted =
            known.first { $0.identity.id.rawValue == target || $0.identity.name == target }
            ?? known.first { $0.identity.host == target }
        let description: TVDescription
        if let persisted {
            description = TVDescription(
                identity: persisted.identity, capabilities: persisted.capabilities ?? TVCapabilities(),
                apps: (persisted.apps ?? []).map { TVApp(id: $0.id, name: $0.name) })
        } else {
            // Not a known TV: an address, written like `--tv`: [roku:|samsung:]HOST[:PORT].
            let address = try ConfigurationLoader.parseTVFlag(target)
            let host = address["host"]?.stringValue ?? target
            let kind = address["kind"]?.stringValue.flatMap(TVKind.init(rawValue:))
            let port = address["port"]?.intValue.flatMap(UInt16.init(exactly:))
            do {
                description = try await factory.probe(host: host, kind: kind, port: port)
            } catch {
                printError(
                    "\(target): not a known TV id or name, and no TV answered at that address (\(error))")
                return 1
            }
        }
        let driver = factory.makeDriver(for: description, persisted: persisted)
        defer { Task { await driver.shutdown() } }
        _ = await driver.poll(full: true)  // learn apps, inputs and the power state first
        for command in commands {
            do {
                try driver.validate(command)
                try await driver.perform(command)
            } catch let error as CommandRejection {
                printError(error.message)
                return 1
            } catch let error as DriverError {
                printError(error.message)
                return 1
            } catch {
                printError("\(error)")
                return 1
            }
        }
        print("ok")
        return 0
    }
}
