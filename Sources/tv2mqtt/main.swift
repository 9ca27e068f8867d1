import Bridge
import BridgeCommandLine
import Drivers
import Glibc
import Net
import Support

// tv2mqtt: the TVs of every vendor below in Home Assistant over MQTT. See `tv2mqtt --help`.
// Its tasks run on the event loop's thread (Sources/tvbench/README.md › One thread).
MallocTuning.apply()  // before the event loop starts its thread
EventLoop.becomeGlobalExecutor(environment: ProcessEnvironment.current())
// The one list of vendors: the configuration, the state file, the bridge and the help texts
// know these and no others.
let vendors: [Vendor] = [.roku, .samsung, .samsungLegacy, .lg, .androidTV]
let code = await CommandLineTool.main(
    Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current(), vendors: vendors,
    makeFactory: VendorDriverFactory.init(configuration:vendors:logger:))
exit(code)
