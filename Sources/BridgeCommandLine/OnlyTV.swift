import Bridge
import Configuration
import Drivers
import Persistence
import Support
import TVModel

/// The TV a command means when the user names none (`send COMMAND`, `pair`): with one TV, use
/// it. That is the only one the state directory knows; when it knows none, the only one a short
/// discovery finds (SSDP at `discovery.ssdp_address`, the configured TVs, `discovery.scan`).
/// With none or several, a message that says how to name one, listing them.
enum OnlyTV {
    /// How long the search lasts when the state directory knows no TV (`--timeout`): by
    /// default one SSDP round (MX 2), enough for TVs, which answer within MX.
    static let defaultSearchSeconds = 3.0

    static let timeoutFlag = FlagSpec(
        "timeout", value: "SECONDS",
        help: "how long to search when no TV is named and the state directory knows none (default 3)")

    /// Where the TV came from: the state directory (what the bridge learned, e.g. a Samsung's
    /// token), or a discovery that just asked it who it is.
    enum Choice {
        case known(PersistedTV)
        case found(TVDescription)

        var identity: TVIdentity {
            switch self {
            case .known(let tv): tv.identity
            case .found(let description): description.identity
            }
        }
    }

    /// Why no TV was chosen; `exitCode` 1 when there is none, 2 when the user must name one.
    struct Refusal: Error {
        let message: String
        let exitCode: Int32
    }

    /// - Parameters:
    ///   - vendors: only TVs of these vendors count (`pair`: the vendors that pair); nil for any.
    ///   - usage: the command line that names a TV, for the messages ("tv2mqtt pair HOST").
    static func choose(
        vendors: [Vendor]?, seconds: Double, known: [PersistedTV], configuration: BridgeConfiguration,
        factory: any DriverFactory, logger: Logger, usage: String
    ) async -> Result<Choice, Refusal> {
        let what = vendors.map(PairCommand.pairingTVs) ?? "TV"
        let counts = { (kind: TVKind) in vendors?.vendor(kind) != nil || vendors == nil }
        let knownOfKind = known.filter { counts($0.identity.kind) }
        let directory = StateStore.resolveDirectory(configuration.stateDir)
        if knownOfKind.count == 1 { return .success(.known(knownOfKind[0])) }
        if knownOfKind.count > 1 {
            return .failure(several(what, knownOfKind.map(\.identity), where: "the state directory knows", usage))
        }
        let found = await DiscoverCommand.find(
            configuration, seconds: seconds, factory: factory, logger: logger
        ).filter { counts($0.identity.kind) }
        if found.count == 1 { return .success(.found(found[0])) }
        if found.count > 1 {
            return .failure(several(what, found.map(\.identity), where: "discovery found", usage))
        }
        var searched = ["the configured TVs"]
        if configuration.discovery.mdns, !factory.vendors.mdnsServices.isEmpty {
            searched.insert("mDNS at \(configuration.discovery.mdnsAddress)", at: 0)
        }
        if configuration.discovery.ssdp { searched.insert("SSDP at \(configuration.discovery.ssdpAddress)", at: 0) }
        if !configuration.discovery.scan.isEmpty {
            searched.append("discovery.scan \(configuration.discovery.scan.map(\.description).joined(separator: ","))")
        }
        return .failure(
            Refusal(
                message:
                    "no \(what) is known (state directory \(directory)) and none answered a \(seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)") s search (\(searched.joined(separator: ", "))); name one by address: \(usage)",
                exitCode: 1))
    }

    private static func several(_ what: String, _ tvs: [TVIdentity], where source: String, _ usage: String)
        -> Refusal
    {
        let rows =
            [["ID", "NAME", "HOST"]]
            + tvs.sorted { $0.id < $1.id }.map { [$0.id.rawValue, $0.name, $0.host] }
        return Refusal(
            message: (["\(source) \(tvs.count) \(what)s; name one (by id, name or address): \(usage)"]
                + TextTable.lines(rows, indent: "  ")).joined(separator: "\n"),
            exitCode: 2)
    }
}
