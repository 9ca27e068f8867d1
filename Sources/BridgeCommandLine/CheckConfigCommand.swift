import Bridge
import ConfigurationLoading
import Drivers

/// `tv2mqtt check-config`: validates and prints the effective configuration, secrets masked.
enum CheckConfigCommand {
    static func main(_ arguments: [String], environment: [String: String]) throws(ConfigError) -> Int32 {
        guard
            let parsed = try CommandLineTool.parse(
                arguments, specs: ConfigurationLoader.runFlags, usage: "tv2mqtt check-config [OPTIONS]",
                summary:
                    "Validates the configuration (file, environment and flags, as 'run' would merge them) and prints the effective configuration with secrets masked."
            )
        else { return 0 }
        let configuration = try CommandLineTool.configuration(parsed, environment: environment)
        print(configuration.effectiveJSON().prettyPrinted())
        return 0
    }
}
