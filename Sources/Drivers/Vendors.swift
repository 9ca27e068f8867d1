import TVModel

/// The list of vendors a process drives is a value, made once by its `main` (`tv2mqtt`'s:
/// `[.roku, .samsung, .samsungLegacy, .lg]`) and handed to whatever needs it. Adding a vendor
/// is a folder in Drivers with its `Vendor` value and its name in that list.
extension [Vendor] {
    /// The vendor of `kind`, if it is one of these.
    public func vendor(_ kind: TVKind) -> Vendor? { first { $0.kind == kind } }

    /// The vendor whose TVs answer (or announce) SSDP target `target`: the first listed.
    public func vendor(ssdpTarget target: String) -> Vendor? { first { $0.ssdpTargets.contains(target) } }

    /// The vendor whose TVs announce DNS-SD service type `service` (`_androidtvremote2._tcp`,
    /// with or without `.local`, any case).
    public func vendor(mdnsService service: String) -> Vendor? {
        let wanted = Self.bareService(service)
        return first { $0.mdnsServices.contains { Self.bareService($0) == wanted } }
    }

    /// Every DNS-SD service type browsed for, each once, in list order.
    public var mdnsServices: [String] {
        var seen: Set<String> = []
        return flatMap(\.mdnsServices).filter { seen.insert(Self.bareService($0)).inserted }
    }

    private static func bareService(_ service: String) -> String {
        let lowered = service.lowercased()
        let trimmed = lowered.hasSuffix(".") ? String(lowered.dropLast()) : lowered
        return trimmed.hasSuffix(".local") ? String(trimmed.dropLast(6)) : trimmed
    }

    /// The vendor whose default port `port` is: what a scan that found it open probes first.
    public func vendor(defaultPort port: UInt16) -> Vendor? { first { $0.defaultPort == port } }

    /// Every SSDP search target, each once, in list order.
    public var ssdpTargets: [String] {
        var seen: Set<String> = []
        return flatMap(\.ssdpTargets).filter { seen.insert($0).inserted }
    }

    /// The ports a network scan probes unless `discovery.scan_ports` says: the default ports of
    /// the vendors a device of unknown kind is asked as.
    public var defaultScanPorts: [UInt16] { filter(\.probedWhenKindUnknown).map(\.defaultPort) }

    /// The kinds' names, in list order, for messages and help.
    public var kindNames: [String] { map(\.kind.rawValue) }

    /// `[roku:|samsung:|…]`: the prefix a TV's address may carry to name its kind.
    public var addressPrefixHelp: String { "[" + kindNames.map { $0 + ":" }.joined(separator: "|") + "]" }

    /// The manufacturers, each once, as a help text names them ("A, B and C").
    public var familyNames: String {
        var seen: Set<String> = []
        let names = map(\.manufacturer).filter { seen.insert($0).inserted }
        guard names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }
}
