import TVSimulators

/// A TV's options that can also announce it with NOTIFY (`--notify`).
protocol AnnouncingTVOptions: SimulatedTVOptions {
    var notifyAddress: String? { get set }
}

extension RokuSimulatorOptions: AnnouncingTVOptions {}
extension SamsungSimulatorOptions: AnnouncingTVOptions {}
extension LGSimulatorOptions: AnnouncingTVOptions {}

/// The flags `tvsim roku`, `tvsim samsung` and `tvsim lg` share: where the TV listens, who may find and
/// wake it, and where its log goes.
struct CommonFlags {
    var allowNonLoopback = false

    /// Reads `flag` and its value into `options` or `plan` when it is one of these flags.
    /// - Returns: false for any other flag (left to the vendor's parser).
    mutating func read(
        _ flag: String, from reader: inout ArgumentReader, into options: inout some AnnouncingTVOptions,
        plan: inout SimulatorPlan
    ) throws(UsageError) -> Bool {
        switch flag {
        case "--host": options.host = try reader.value(for: flag)
        case "--ssdp-port": options.ssdpPort = try reader.port(for: flag, allowZero: true)
        case "--wol-port": options.wolPort = try reader.port(for: flag, allowZero: true)
        case "--notify": options.notifyAddress = try SimulatorPlan.notifyTarget(try reader.value(for: flag))
        case "--log": plan.logPath = try reader.value(for: flag)
        case "--allow-non-loopback": allowNonLoopback = true
        default: return false
        }
        return true
    }
}

extension SimulatorPlan {
    /// The loop every one-TV command shares: the common flags, `--help` (prints `help`, returns
    /// false), then each other flag to `vendor`, which returns false for one it does not know
    /// (refused, naming `command`); at the end the host is checked.
    static func readFlags<Options: AnnouncingTVOptions>(
        _ arguments: ArraySlice<String>, into options: inout Options, plan: inout SimulatorPlan, help: String,
        command: String, _ vendor: (String, inout ArgumentReader, inout Options) throws(UsageError) -> Bool
    ) throws(UsageError) -> Bool {
        var reader = ArgumentReader(arguments)
        var common = CommonFlags()
        while let flag = reader.next() {
            if try common.read(flag, from: &reader, into: &options, plan: &plan) { continue }
            if flag == "--help" || flag == "-h" {
                print(help)
                return false
            }
            guard try vendor(flag, &reader, &options) else {
                throw UsageError("unknown flag '\(flag)' for tvsim \(command) (see tvsim \(command) --help)")
            }
        }
        try checkHost(options.host, allowNonLoopback: common.allowNonLoopback)
        return true
    }
}
