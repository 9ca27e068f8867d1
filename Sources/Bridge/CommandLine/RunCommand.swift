import Dispatch
import Drivers
import Glibc
import Support
import Synchronization

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

/// SIGTERM and SIGINT delivered to a handler on a Dispatch queue; a second signal ends the
/// process at once.
///
/// The signals are unblocked first: a parent (Foundation.Process, some supervisors) may start
/// us with them blocked, and then `systemctl stop` or `docker stop` would never reach us.
final class SignalHandlers: @unchecked Sendable {  // immutable after init; DispatchSource is thread-safe
    private let sources: [any DispatchSourceSignal]

    init(_ handler: @escaping @Sendable (Int32) -> Void) {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        var made: [any DispatchSourceSignal] = []
        let count = Counter()
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)  // Dispatch sees it; the default action must not kill us first
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if count.increment() > 1 { exit(1) }
                handler(number)
            }
            source.resume()
            made.append(source)
        }
        sources = made
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let value = Mutex(0)

    func increment() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}
