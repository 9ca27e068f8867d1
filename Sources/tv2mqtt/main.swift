import Bridge
import BridgeCommandLine
import Drivers
import Glibc
import Net
import Support

EventLoop.becomeGlobalExecutor(environment: ProcessEnvironment.current())

// tv2mqtt: Roku and Samsung TVs in Home Assistant over MQTT. See `tv2mqtt --help`.
let code = await CommandLineTool.main(
    Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current(),
    makeFactory: { configuration, logger in
        VendorDriverFactory(configuration: configuration, logger: logger)
    })
exit(code)
