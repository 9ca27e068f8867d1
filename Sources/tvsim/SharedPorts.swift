import TVSimulators

/// The SSDP, mDNS and Wake-on-LAN ports that TVs asked to bind port 0 end up sharing.
///
/// `--ssdp-port 0` / `--mdns-port 0` / `--wol-port 0`: the first TV binds a port the kernel
/// picks, every later TV joins it, and it is reported once (`tvsim: ssdp port P`) for whoever
/// started tvsim to read:
/// a port chosen beforehand and bound later could be taken by another socket in between.
struct SharedPorts {
    private var ssdpPort: UInt16?
    private var wolPort: UInt16?
    private var mdnsPort: UInt16?

    /// The port a TV should bind for `requested`: the shared one once known, when it asked for 0.
    func ssdp(_ requested: UInt16?) -> UInt16? { requested == 0 ? ssdpPort ?? 0 : requested }
    func wol(_ requested: UInt16?) -> UInt16? { requested == 0 ? wolPort ?? 0 : requested }
    func mdns(_ requested: UInt16?) -> UInt16? { requested == 0 ? mdnsPort ?? 0 : requested }

    /// Records the ports the first TV bound and reports each once on standard error.
    mutating func learn(ssdp: UInt16?, wol: UInt16?, mdns: UInt16?) {
        if ssdpPort == nil, let ssdp {
            ssdpPort = ssdp
            writeStandardError("tvsim: ssdp port \(ssdp)")
        }
        if wolPort == nil, let wol {
            wolPort = wol
            writeStandardError("tvsim: wol port \(wol)")
        }
        if mdnsPort == nil, let mdns {
            mdnsPort = mdns
            writeStandardError("tvsim: mdns port \(mdns)")
        }
    }
}
