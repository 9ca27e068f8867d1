import Bridge
import Clients
import Configuration
import ConfigurationLoading
import Drivers
import Net
import Support
import TVModel
import Wire

/// `tv2mqtt discover`: finds TVs (SSDP, mDNS, configured networks, configured TVs), asks each who it
/// is, prints a table or JSON, and exits.
enum DiscoverCommand {
    static func specs(_ vendors: [Vendor]) -> [FlagSpec] {
        [
            FlagSpec("timeout", value: "SECONDS", help: "how long to search (default 5)"),
            FlagSpec("json", help: "print JSON instead of a table"),
        ]
            + ConfigurationLoader.runFlags(vendors).filter {
                ["config", "ssdp-address", "mdns-address", "scan", "tv", "no-ssdp", "no-mdns", "log-level"].contains(
                    $0.name)
            }
    }

    static func main(
        _ arguments: [String], environment: [String: String], vendors: [Vendor], makeFactory: DriverFactoryMaker
    )
        async throws(ConfigError) -> Int32
    {
        guard
            let parsed = try CommandLineTool.parse(
                arguments, specs: specs(vendors), usage: "tv2mqtt discover [OPTIONS]",
                summary: "Finds \(vendors.familyNames) TVs on the network and prints what they are.")
        else { return 0 }
        let seconds = try searchSeconds(parsed, default: 5)
        let configuration = try CommandLineTool.configuration(parsed, environment: environment, vendors: vendors)
        var logConfiguration = configuration
        if parsed.value("log-level") == nil { logConfiguration.logLevel = "warning" }
        let logger = CommandLineTool.logger(logConfiguration)
        let factory = makeFactory(configuration, vendors, logger)
        let found = await find(configuration, seconds: seconds, factory: factory, logger: logger)
        if parsed.has("json") {
            print(JSONValue.array(found.map(json)).prettyPrinted())
        } else {
            printTable(found)
        }
        return 0
    }

    /// `--timeout SECONDS`: how long a search lasts (1 to 120).
    static func searchSeconds(_ parsed: ParsedArguments, default seconds: Double) throws(ConfigError) -> Double {
        guard let text = parsed.value("timeout") else { return seconds }
        guard let value = Double(text), value >= 1, value <= 120 else {
            throw ConfigError("--timeout: expected seconds from 1 to 120, got '\(text)'")
        }
        return value
    }

    /// Every TV that answered, by id.
    static func find(
        _ configuration: BridgeConfiguration, seconds: Double, factory: any DriverFactory,
        logger: Logger
    )
        async -> [TVDescription]
    {
        let candidates = Candidates()
        let vendors = factory.vendors
        await withDiscardingTaskGroup { group in
            for tv in configuration.tvs { await candidates.add(tv.host, tv.kind, tv.port) }
            if configuration.discovery.ssdp,
                let address = try? SocketAddress(
                    ip: configuration.discovery.ssdpAddress.host,
                    port: configuration.discovery.ssdpAddress.port)
            {
                group.addTask {
                    let discoverer = SSDPDiscoverer(
                        searchAddress: address, interfaces: configuration.discovery.interfaces,
                        targets: vendors.ssdpTargets, logger: logger)
                    let rounds = max(1, min(3, Int(seconds) / 2))
                    try? await discoverer.search(count: rounds, mx: max(1, min(5, Int(seconds) - 1))) {
                        sighting in
                        let vendor = vendors.vendor(ssdpTarget: sighting.target)
                        let port = vendor?.ssdpLocationIsControlPort == true ? sighting.location.port : nil
                        await candidates.add(sighting.address, vendor?.kind, port)
                    }
                }
            }
            if let mdns = MDNSBrowse(configuration.discovery, vendors: vendors, logger: logger) {
                group.addTask {
                    let rounds = max(1, min(3, Int(seconds) / 2))
                    let window = Duration.seconds(max(1, seconds - Double(rounds - 1)))
                    try? await mdns.browse(rounds: rounds, window: window) { found in
                        await candidates.add(found.host, found.kind, found.port)
                    }
                }
            }
            for network in configuration.discovery.scan {
                for host in network.hosts {
                    for port in configuration.discovery.ports(scannedFor: vendors) {
                        group.addTask {
                            guard let address = try? SocketAddress(ip: host, port: port),
                                let connection = try? await TCPConnection.connect(
                                    to: address, timeout: .milliseconds(700))
                            else { return }
                            connection.close()
                            await candidates.add(host, vendors.vendor(defaultPort: port)?.kind, port)
                        }
                    }
                }
            }
        }
        var results: [TVID: TVDescription] = [:]
        await withTaskGroup(of: TVDescription?.self) { group in
            for (host, kind, port) in await candidates.all {
                group.addTask { try? await factory.probe(host: host, kind: kind, port: port) }
            }
            for await description in group {
                if let description { results[description.identity.id] = description }
            }
        }
        return results.values.sorted { $0.identity.name < $1.identity.name }
    }

    actor Candidates {
        private var seen: Set<String> = []
        private(set) var all: [(String, TVKind?, UInt16?)] = []

        func add(_ host: String, _ kind: TVKind?, _ port: UInt16?) {
            if seen.insert(host).inserted { all.append((host, kind, port)) }
        }
    }

    static func json(_ description: TVDescription) -> JSONValue {
        let identity = description.identity
        return [
            "id": .string(identity.id.rawValue), "name": .string(identity.name),
            "kind": .string(identity.kind.rawValue),
            "manufacturer": .string(identity.manufacturer), "model": .optional(identity.model),
            "model_id": .optional(identity.modelID), "serial_number": .optional(identity.serialNumber),
            "host": .string(identity.host), "port": .integer(Int64(identity.port)),
            "macs": .array(identity.macs.map(JSONValue.string)),
        ]
    }

    static func printTable(_ found: [TVDescription]) {
        guard !found.isEmpty else {
            print("no TVs found (is SSDP blocked? try --scan CIDR or --tv HOST)")
            return
        }
        let rows =
            [["ID", "NAME", "KIND", "MODEL", "HOST", "MAC"]]
            + found.map { description in
                let identity = description.identity
                return [
                    identity.id.rawValue, identity.name, identity.kind.rawValue,
                    identity.model ?? identity.modelID ?? "", identity.host,
                    identity.macs.joined(separator: ","),
                ]
            }
        for line in TextTable.lines(rows) { print(line) }
    }
}
