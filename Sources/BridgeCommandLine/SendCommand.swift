import Bridge
import Configuration
import ConfigurationLoading
import Drivers
import Persistence
import Support
import TVModel
import Wire

/// `tv2mqtt send [TV] COMMAND [ARG]`: one command, straight to the TV, no MQTT. TV is an id or
/// name from the state directory, or an IP address; without it, the only TV (`OnlyTV`).
/// Exit 0 when the TV took it, 1 when not.
enum SendCommand {
    static func specs(_ vendors: [Vendor]) -> [FlagSpec] {
        ConfigurationLoader.runFlags(vendors).filter {
            ["config", "state-dir", "log-level", "wol-target", "ssdp-address", "no-ssdp", "mdns-address", "no-mdns"]
                .contains($0.name)
        } + [OnlyTV.timeoutFlag]
    }

    static let usage = "tv2mqtt send [OPTIONS] [TV] COMMAND [ARG]"

    /// The COMMAND names `send` takes: the shared commands and every switch and select a
    /// driver of `vendors` may declare.
    static func commandNames(_ vendors: [Vendor]) -> [String] {
        CommandParser.properties(vendors.flatMap(\.controls))
    }

    static func main(
        _ arguments: [String], environment: [String: String], vendors: [Vendor], makeFactory: DriverFactoryMaker
    )
        async throws(ConfigError) -> Int32
    {
        let controls = vendors.flatMap(\.controls)
        let commandNames = Self.commandNames(vendors)
        guard
            let parsed = try CommandLineTool.parse(
                arguments, specs: specs(vendors), usage: usage,
                summary:
                    "Sends one command to a TV without MQTT. TV is an id or name the bridge knows (state directory) or an address, \(vendors.addressPrefixHelp)IP[:PORT]. COMMAND is one of \(commandNames.joined(separator: ", ")); for example: send living_room key home; send 192.168.1.50 power off. Without TV, the only TV: the one the state directory knows or, when it knows none, the one a discovery finds (3 s, --timeout); with several, it lists them. Two words are COMMAND ARG when the first is a command name and no known TV is called that, otherwise TV COMMAND: send key home; send living_room mute."
            )
        else { return 0 }
        let positionals = parsed.positionals
        guard (1...3).contains(positionals.count) else {
            throw ConfigError("send needs [TV] COMMAND [ARG] (see 'tv2mqtt send --help')")
        }
        if positionals.count == 1 && !commandNames.contains(positionals[0]) {
            throw ConfigError(
                "send needs [TV] COMMAND [ARG]: '\(positionals[0])' is not a command (\(commandNames.joined(separator: ", "))); see 'tv2mqtt send --help'"
            )
        }
        let setup = try TVCommandSetup(parsed, environment: environment, vendors: vendors, makeFactory: makeFactory)
        let (configuration, logger, factory, store) = (setup.configuration, setup.logger, setup.factory, setup.store)
        let searchSeconds = setup.searchSeconds
        var state = store.load()
        if state.ensureInstallationID() { _ = try? store.save(state) }  // the id a TV may remember us by
        let known = state.tvs
        let words = Words(positionals, names: names(known, configuration), commandNames: commandNames)
        let commands: [CheckedCommand]
        do {
            commands = try CommandParser.parse(
                property: words.command, payload: Array(words.argument.utf8), controls: controls
            ).checked
        } catch {
            throw ConfigError(error.message)
        }
        let description: TVDescription
        var persisted: PersistedTV?
        if let target = words.tv {
            persisted =
                known.first { $0.identity.id.rawValue == target || $0.identity.name == target }
                ?? known.first { $0.identity.host == target }
            if let persisted {
                description = persisted.tvDescription
            } else {
                // Not a known TV: an address, written like `--tv`: [kind:]HOST[:PORT].
                let address = try ConfigurationLoader.parseTVFlag(target, vendors: vendors)
                do {
                    description = try await factory.probe(host: address.host, kind: address.kind, port: address.port)
                } catch {
                    printError(
                        "\(target): not a known TV id or name, and no TV answered at that address (\(error))")
                    return 1
                }
            }
        } else {
            switch await OnlyTV.choose(
                vendors: nil, seconds: searchSeconds, known: known, configuration: configuration, factory: factory,
                logger: logger,
                usage: "tv2mqtt send TV COMMAND [ARG]")
            {
            case .failure(let refusal):
                printError(refusal.message)
                return refusal.exitCode
            case .success(.known(let tv)):
                persisted = tv
                description = tv.tvDescription
            case .success(.found(let found)):
                persisted = known.first { $0.identity.id == found.identity.id }
                description = found
            }
        }
        let driver = factory.makeDriver(
            for: description, secrets: TVSecrets(persisted, installationID: state.installationID))
        defer { Task { await driver.shutdown() } }
        _ = await driver.poll(full: true)  // learn apps, inputs and the power state first
        for command in commands {
            do {
                try await driver.execute(try driver.plan(command))
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

extension SendCommand {
    /// `send`'s words as [TV] COMMAND [ARG]. Three words: TV COMMAND ARG; one: COMMAND. Two are
    /// COMMAND ARG when the first is a command name and no known TV is called that (id, name or
    /// host), otherwise TV COMMAND: `send key home`, `send living_room mute`.
    struct Words: Equatable {
        var tv: String?
        var command: String
        var argument: String

        init(tv: String?, command: String, argument: String) {
            (self.tv, self.command, self.argument) = (tv, command, argument)
        }

        /// `commandNames`: the COMMAND names `send` takes.
        init(_ words: [String], names: Set<String>, commandNames: [String]) {
            switch words.count {
            case 3: self.init(tv: words[0], command: words[1], argument: words[2])
            case 1: self.init(tv: nil, command: words[0], argument: "")
            default:
                if commandNames.contains(words[0]) && !names.contains(words[0]) {
                    self.init(tv: nil, command: words[0], argument: words[1])
                } else {
                    self.init(tv: words[0], command: words[1], argument: "")
                }
            }
        }
    }

    /// Everything a TV can be called on the command line: ids, names and hosts of the TVs the
    /// state directory knows and the configuration lists.
    static func names(_ known: [PersistedTV], _ configuration: BridgeConfiguration) -> Set<String> {
        var names = Set(known.flatMap { [$0.identity.id.rawValue, $0.identity.name, $0.identity.host] })
        for tv in configuration.tvs {
            names.insert(tv.host)
            if let id = tv.id { names.insert(id.rawValue) }
            if let name = tv.name { names.insert(name) }
        }
        return names
    }
}
