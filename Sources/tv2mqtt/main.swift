import Bridge
import BridgeCommandLine
import Drivers
import Glibc
import Net
import Support

// tv2mqtt: the TVs of every vendor in `Vendors.all` in Home Assistant over MQTT. See `tv2mqtt --help`.
// Its tasks run on the event loop's thread (Sources/tvbench/README.md › One thread).
MallocTuning.apply()  // before the event loop starts its thread
EventLoop.becomeGlobalExecutor(environment: ProcessEnvironment.current())
let code = await CommandLineTool.main(
    Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current(),
    makeFactory: { configuration, logger in
        VendorDriverFactory(configuration: configuration, logger: logger)
    })
exit(code)
