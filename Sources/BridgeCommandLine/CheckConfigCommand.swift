import Bridge
import ConfigurationLoading
import Drivers
import Wire

/// `tv2mqtt check-config`: validates and prints the effective configuration, secrets masked.
enum CheckConfigCommand {
    static func main(_ arguments: [String], environment: [String: String], vendors: [Vendor]) throws(ConfigError)
        -> Int32
    {
        guard
            let parsed = try CommandLineTool.parse(
                arguments, specs: ConfigurationLoader.runFlags(vendors), usage: "tv2mqtt check-config [OPTIONS]",
                summary:
                    "Validates the configuration (file, environment and flags, as 'run' would merge them) and prints the effective configuration with secrets masked."
            )
        else { return 0 }
        let configuration = try CommandLineTool.configuration(parsed, environment: environment, vendors: vendors)
        print(configuration.effectiveJSON(vendors: vendors).prettyPrinted())
        return 0
    }
}
