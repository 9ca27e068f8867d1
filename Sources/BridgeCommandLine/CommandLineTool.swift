import Bridge
import Configuration
import ConfigurationLoading
import Drivers
import Glibc
import Persistence
import Support
import Wire

/// Makes the driver factory for the vendors once the configuration is loaded.
public typealias DriverFactoryMaker = @Sendable (BridgeConfiguration, [Vendor], Logger) -> any DriverFactory

/// The `tv2mqtt` command line (README › Command line). Returns the process exit code:
/// 0 success, 1 failure, 2 a usage or configuration mistake.
public enum CommandLineTool {
    /// The commands and their summaries, which name the vendors that pair.
    public static func commands(_ vendors: [Vendor]) -> [(name: String, summary: String)] {
        [
            ("run", "run the bridge (the default command)"),
            ("discover", "find TVs on the network, print a table (or JSON), exit"),
            (
                "pair",
                "pair with \(PairCommand.withArticle(PairCommand.pairingTVs(vendors.filter(\.pairs)))) (approve on the TV); the token is saved in the state directory"
            ),
            ("send", "send one command directly, without MQTT; the exit code tells success"),
            (
                "check-config",
                "validate the configuration and print the effective configuration (secrets masked)"
            ),
            ("health", "exit 0 when the broker says this bridge is online (container health checks)"),
            ("version", "print the version"),
        ]
    }

    /// Runs with one factory and its vendors whatever the configuration says (tests).
    public static func main(
        _ arguments: [String], environment: [String: String], factory: any DriverFactory
    ) async
        -> Int32
    {
        await main(arguments, environment: environment, vendors: factory.vendors, makeFactory: { _, _, _ in factory })
    }

    /// Runs for `vendors` (their kinds, configuration sections and help texts) with drivers
    /// made from the loaded configuration (`wol`, the vendors' sections), which is known only
    /// once the command's flags were parsed.
    public static func main(
        _ arguments: [String], environment: [String: String], vendors: [Vendor],
        makeFactory: @escaping DriverFactoryMaker
    )
        async -> Int32
    {
        var rest = arguments
        var command = "run"
        if let first = rest.first, !first.hasPrefix("-") {
            command = first
            rest.removeFirst()
        } else if rest.first == "--help" || rest.first == "-h" {
            print(usage(vendors))
            return 0
        } else if rest.first == "--version" {
            print("tv2mqtt \(TV2MQTTVersion.current)")
            return 0
        }
        do {
            switch command {
            case "run":
                return try await RunCommand.main(
                    rest, environment: environment, vendors: vendors, makeFactory: makeFactory)
            case "discover":
                return try await DiscoverCommand.main(
                    rest, environment: environment, vendors: vendors, makeFactory: makeFactory)
            case "pair":
                return try await PairCommand.main(
                    rest, environment: environment, vendors: vendors, makeFactory: makeFactory)
            case "send":
                return try await SendCommand.main(
                    rest, environment: environment, vendors: vendors, makeFactory: makeFactory)
            case "check-config": return try CheckConfigCommand.main(rest, environment: environment, vendors: vendors)
            case "health": return try await HealthCommand.main(rest, environment: environment, vendors: vendors)
            case "version":
                _ = try ParsedArguments.parse(rest, specs: [], command: "tv2mqtt version")
                print("tv2mqtt \(TV2MQTTVersion.current)")
                return 0
            default:
                printError("unknown command '\(command)' (see 'tv2mqtt --help')")
                return 2
            }
        } catch {
            printError(error.message)
            return 2
        }
    }

    static func usage(_ vendors: [Vendor]) -> String {
        var lines = [
            "usage: tv2mqtt [COMMAND] [OPTIONS]", "", "\(vendors.familyNames) TVs in Home Assistant over MQTT.",
            "",
            "commands:",
        ]
        for (name, summary) in commands(vendors) {
            lines.append("  \(name)" + String(repeating: " ", count: 14 - name.count) + summary)
        }
        lines += ["", "'tv2mqtt COMMAND --help' shows the options of a command."]
        return lines.joined(separator: "\n")
    }

    /// Parses a command's flags; prints help and returns nil for `--help`.
    static func parse(_ arguments: [String], specs: [FlagSpec], usage: String, summary: String)
        throws(ConfigError)
        -> ParsedArguments?
    {
        let parsed = try ParsedArguments.parse(
            arguments, specs: specs, command: "tv2mqtt \(usage.split(separator: " ")[1])")
        if parsed.has("help") {
            print(ParsedArguments.help(usage: usage, summary: summary, specs: specs))
            return nil
        }
        return parsed
    }

    /// Loads the configuration the way `run` does, with the sections and kinds of `vendors`.
    static func configuration(_ parsed: ParsedArguments, environment: [String: String], vendors: [Vendor])
        throws(ConfigError)
        -> BridgeConfiguration
    {
        try ConfigurationLoader.load(arguments: parsed, environment: environment, vendors: vendors) { path in
            do {
                guard let bytes = try FileSystem.read(path) else { throw ConfigError("no such file") }
                return bytes
            } catch let error as ConfigError {
                throw error
            } catch {
                throw ConfigError("\(error)")
            }
        }
    }

    static func logger(_ configuration: BridgeConfiguration, label: String = "tv2mqtt") -> Logger {
        Logger(
            label: label,
            sink: StandardErrorSink(format: LogFormat(rawValue: configuration.logFormat) ?? .text),
            threshold: LogThreshold(LogLevel(name: configuration.logLevel) ?? .info))
    }
}

func printError(_ message: String) {
    var line = Array("tv2mqtt: \(message)\n".utf8)
    _ = line.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}
