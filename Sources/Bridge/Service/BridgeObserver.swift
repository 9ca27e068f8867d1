/// Sees what the bridge tells the broker, as it tells it: the status page's live feed. The
/// bridge holds none (nil) unless the page is on, so an unobserved bridge pays one nil check.
public protocol BridgeObserver: Sendable {
    /// A message the bridge published, or a retained value it set or cleared (an empty
    /// payload), whether or not the broker is connected. Called on the publisher's actor:
    /// it must return at once.
    func published(topic: String, payload: [UInt8])
    /// The broker connection came up (true) or went down (false).
    func brokerConnection(connected: Bool)
    /// A discovery step (`DiscoveryNote`).
    func discovery(_ note: DiscoveryNote)
}

/// What finding TVs came to, for the page's discovery panel.
public enum DiscoveryNote: Sendable {
    /// An SSDP search went out.
    case searched
    /// A device answered (an SSDP answer or announcement, a scan hit).
    case answered(address: String, kind: String?, via: String)
    /// An address was not taken as a TV, and why.
    case refused(address: String, reason: String)
}

extension BridgeObserver {
    /// A discovery step; observers that do not show discovery ignore it.
    public func discovery(_ note: DiscoveryNote) {}
}
