import Bridge
import Configuration
import ConfigurationLoading
import Drivers
import Persistence
import Support
import Wire

/// What `pair` and `send` both need before they reach a TV: the merged configuration, a
/// logger, the driver factory, the state store and how long a search for the only TV lasts.
struct TVCommandSetup {
    let configuration: BridgeConfiguration
    let logger: Logger
    let factory: any DriverFactory
    let store: StateStore
    let searchSeconds: Double

    init(
        _ parsed: ParsedArguments, environment: [String: String], vendors: [Vendor], makeFactory: DriverFactoryMaker
    ) throws(ConfigError) {
        searchSeconds = try DiscoverCommand.searchSeconds(parsed, default: OnlyTV.defaultSearchSeconds)
        configuration = try CommandLineTool.configuration(parsed, environment: environment, vendors: vendors)
        logger = CommandLineTool.logger(configuration)
        // One command and out: nothing a vendor keeps open (event subscriptions) may outlive it.
        var oneShot = configuration
        oneShot.vendorSettings = configuration.vendorSettings.forOneCommand(of: vendors)
        factory = makeFactory(oneShot, vendors, logger)
        store = StateStore(
            directory: StateStore.resolveDirectory(configuration.stateDir), kinds: vendors.stateFileKinds,
            logger: logger)
    }
}
