import Bridge
import ConfigurationLoading
import Drivers
import Glibc
import Net
import Support

/// `tv2mqtt run`: the bridge, until SIGTERM or SIGINT.
enum RunCommand {
    static func main(
        _ arguments: [String], environment: [String: String], makeFactory: DriverFactoryMaker
    )
        async throws(ConfigError) -> Int32
    {
        guard
            let parsed = try CommandLineTool.parse(
                arguments, specs: ConfigurationLoader.runFlags, usage: "tv2mqtt run [OPTIONS]",
                summary:
                    "Runs the bridge: finds TVs, publishes them to Home Assistant, carries out commands.")
        else { return 0 }
        let configuration = try CommandLineTool.configuration(parsed, environment: environment)
        let logger = CommandLineTool.logger(configuration)
        let descriptors = DescriptorLimit.raiseToHard()
        if let failure = descriptors.failure {
            logger.warning("\(descriptors) (could not raise it: \(failure))")
        } else {
            logger.info("\(descriptors)")
        }
        let factory = makeFactory(configuration, logger)
        let service: BridgeService
        do {
            service = try BridgeService(configuration: configuration, logger: logger, factory: factory)
        } catch {
            printError("cannot start: \(error)")
            return 1
        }
        let signals = SignalHandlers { signal in
            logger.info("received \(signal == SIGTERM ? "SIGTERM" : "SIGINT"), stopping")
            service.shutdown()
        }
        await service.run()
        signals.cancel()
        return 0
    }
}
