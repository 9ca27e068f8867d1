/// The layout of Home Assistant's discovery topics under the discovery prefix, built and read
/// here and nowhere else: `<prefix>/device/<node>/config` (device style) and
/// `<prefix>/<platform>/<node>/<key>/config` (entity style, and device triggers).
public struct DiscoveryTopics: Sendable, Equatable {
    public let prefix: String

    public init(prefix: String) { self.prefix = prefix }

    static let deviceLevel = "device"
    static let configLevel = "config"

    /// `<prefix>/device/<node>/config`.
    public func device(node: String) -> String {
        [prefix, Self.deviceLevel, node, Self.configLevel].joined(separator: "/")
    }

    /// `<prefix>/<platform>/<node>/<key>/config`.
    public func component(_ platform: EntityDescription.Platform, node: String, key: String) -> String {
        [prefix, platform.rawValue, node, key, Self.configLevel].joined(separator: "/")
    }

    /// The subscription filters that match every config of both layouts.
    public var everyConfig: [String] {
        [device(node: "+"), [prefix, "+", "+", "+", Self.configLevel].joined(separator: "/")]
    }

    /// Whether `topic` is a config under the prefix (either layout, or another program's).
    public func isConfig(_ topic: String) -> Bool {
        topic.hasPrefix(prefix + "/") && topic.hasSuffix("/" + Self.configLevel)
    }

    /// The node id of a config topic of either layout; nil for anything else.
    public func node(of topic: String) -> String? {
        guard isConfig(topic) else { return nil }
        let levels = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        switch levels.count {
        case 3 where levels[0] == Self.deviceLevel: return String(levels[1])
        case 4 where EntityDescription.Platform(rawValue: String(levels[0])) != nil: return String(levels[1])
        default: return nil
        }
    }
}

extension DiscoverySettings {
    public var discoveryTopics: DiscoveryTopics { DiscoveryTopics(prefix: discoveryPrefix) }
}
