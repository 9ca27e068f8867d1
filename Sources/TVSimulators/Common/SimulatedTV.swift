/// What `tvsim` (and a benchmark) needs of any simulated TV, whatever its vendor: the UDP ports
/// it ended up with, so TVs started after it can share them, and a way to stop it.
public protocol SimulatedTV: Sendable {
    /// The SSDP responder's port; nil without one.
    var ssdpPort: UInt16? { get }
    /// The Wake-on-LAN listener's port; nil without one.
    var wolPort: UInt16? { get }
    /// The DNS-SD responder's port; nil without one.
    var mdnsPort: UInt16? { get }
    /// Closes every socket and waits for every task.
    func stop() async
}

/// The options every simulated TV has: where it listens and which UDP ports it shares.
public protocol SimulatedTVOptions: Sendable {
    var host: String { get set }
    /// SSDP responder port; nil: none, 0: any free port.
    var ssdpPort: UInt16? { get set }
    /// Wake-on-LAN port; nil: none, 0: any free port.
    var wolPort: UInt16? { get set }
    /// DNS-SD responder port, for a vendor whose TVs answer mDNS; nil: none, 0: any free port.
    var mdnsPort: UInt16? { get set }
}

/// Vendors whose TVs do not answer mDNS.
extension SimulatedTV {
    public var mdnsPort: UInt16? { nil }
}

extension SimulatedTVOptions {
    public var mdnsPort: UInt16? {
        get { nil }
        set {}  // no responder to move
    }
}

extension RokuSimulator: SimulatedTV {}
extension SamsungSimulator: SimulatedTV {}
extension SamsungLegacySimulator: SimulatedTV {}
extension LGSimulator: SimulatedTV {}
extension RokuSimulatorOptions: SimulatedTVOptions {}
extension SamsungSimulatorOptions: SimulatedTVOptions {}
extension SamsungLegacySimulatorOptions: SimulatedTVOptions {}
extension LGSimulatorOptions: SimulatedTVOptions {}
