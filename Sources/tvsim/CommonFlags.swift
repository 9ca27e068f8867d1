import TVSimulators

/// A TV's options that can also announce it with NOTIFY (`--notify`).
protocol AnnouncingTVOptions: SimulatedTVOptions {
    var notifyAddress: String? { get set }
}

extension RokuSimulatorOptions: AnnouncingTVOptions {}
extension SamsungSimulatorOptions: AnnouncingTVOptions {}

/// The flags `tvsim roku` and `tvsim samsung` share: where the TV listens, who may find and
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
