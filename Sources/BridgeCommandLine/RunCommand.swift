import Bridge
import ConfigurationLoading
import Drivers
import Glibc
import Net
import StatusPage
import Support
import Wire

/// `tv2mqtt run`: the bridge, until SIGTERM or SIGINT.
enum RunCommand {
    static func main(
        _ arguments: [String], environment: [String: String], vendors: [Vendor], makeFactory: DriverFactoryMaker
    )
        async throws(ConfigError) -> Int32
    {
        guard
            let parsed = try CommandLineTool.parse(
                arguments, specs: ConfigurationLoader.runFlags(vendors), usage: "tv2mqtt run [OPTIONS]",
                summary:
                    "Runs the bridge: finds TVs, publishes them to Home Assistant, carries out commands.")
        else { return 0 }
        let configuration = try CommandLineTool.configuration(parsed, environment: environment, vendors: vendors)
        // The status page's feed exists only when the page is on: off, nothing is kept for it.
        let feed = configuration.http.listen.map { _ in StatusFeed(baseTopic: configuration.baseTopic) }
        let plain = CommandLineTool.logger(configuration)
        let logger =
            feed.map { Logger(label: plain.label, sink: $0.sink(wrapping: plain.sink), threshold: plain.threshold) }
            ?? plain
        let descriptors = DescriptorLimit.raiseToHard()
        if let failure = descriptors.failure {
            logger.warning("\(descriptors) (could not raise it: \(failure))")
        } else {
            logger.info("\(descriptors)")
        }
        let factory = makeFactory(configuration, vendors, logger)
        let service: BridgeService
        let statusServer: StatusServer?
        do {
            service = try BridgeService(configuration: configuration, logger: logger, factory: factory, observer: feed)
            statusServer = try feed.map { feed throws(NetError) in
                try StatusServer.start(service: service, feed: feed, settings: configuration.http, logger: logger)
            }
        } catch {
            printError("cannot start: \(error)")
            return 1
        }
        let signals = SignalHandlers { signal in
            logger.info("received \(signal == SIGTERM ? "SIGTERM" : "SIGINT"), stopping")
            // The page first: no command may arrive while the TVs are being let go.
            statusServer?.close()
            service.shutdown()
        }
        await service.run()
        statusServer?.close()
        signals.cancel()
        return 0
    }
}
