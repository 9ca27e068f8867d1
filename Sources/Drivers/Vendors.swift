import TVModel

/// The vendors tv2mqtt drives, listed once. Adding a vendor is a folder in Drivers with its
/// `Vendor` value and one line here.
public enum Vendors {
    public static let all: [Vendor] = [.roku, .samsung, .samsungLegacy, .lg]

    /// The manufacturers of `all`, each once, as a help text names them ("A, B and C").
    public static var familyNames: String {
        var seen: Set<String> = []
        let names = all.map(\.manufacturer).filter { seen.insert($0).inserted }
        guard names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }
}

extension [Vendor] {
    /// The vendor of `kind`, if it is one of these.
    public func vendor(_ kind: TVKind) -> Vendor? { first { $0.kind == kind } }

    /// The vendor whose TVs answer (or announce) SSDP target `target`: the first listed.
    public func vendor(ssdpTarget target: String) -> Vendor? { first { $0.ssdpTargets.contains(target) } }

    /// The vendor whose default port `port` is: what a scan that found it open probes first.
    public func vendor(defaultPort port: UInt16) -> Vendor? { first { $0.defaultPort == port } }

    /// Every SSDP search target, each once, in list order.
    public var ssdpTargets: [String] {
        var seen: Set<String> = []
        return flatMap(\.ssdpTargets).filter { seen.insert($0).inserted }
    }

    /// The kinds' names, in list order, for messages and help.
    public var kindNames: [String] { map(\.kind.rawValue) }

    /// `[roku:|samsung:|…]`: the prefix a TV's address may carry to name its kind.
    public var addressPrefixHelp: String { "[" + kindNames.map { $0 + ":" }.joined(separator: "|") + "]" }
}
