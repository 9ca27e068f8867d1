import Glibc
import Support
import TVSimulators

/// The descriptors a plan needs, and a limit raised to fit them.
///
/// Each simulated TV holds its sockets for as long as it runs (a Roku: ECP listener and two
/// SSDP sockets; a Samsung: three listeners and two SSDP sockets; one more each for
/// Wake-on-LAN), and each client connection costs one more: 5,000 TVs need about 20,000
/// before the bridge connects, more than most systems' hard limit. tvsim raises its soft limit
/// to the hard one, and, when that is not enough and it is allowed to (CAP_SYS_RESOURCE, e.g.
/// root in a test namespace), the hard limit too; otherwise it says so before starting any TV
/// rather than failing half-way.
struct DescriptorBudget {
    /// Per TV: sockets while idle, plus room for the connections a bridge keeps open to it
    /// (Roku: its ECP connections; Samsung: REST, UPnP and a remote channel).
    static func needed(for plan: SimulatorPlan) -> UInt64 {
        func udp(_ ssdp: UInt16?, _ wol: UInt16?) -> UInt64 { (ssdp == nil ? 0 : 2) + (wol == nil ? 0 : 1) }
        let rokus = plan.rokus.reduce(UInt64(0)) { $0 + 1 + udp($1.ssdpPort, $1.wolPort) + 2 }
        let samsungs = plan.samsungs.reduce(UInt64(0)) { $0 + 3 + udp($1.ssdpPort, $1.wolPort) + 3 }
        let legacies = plan.samsungLegacies.reduce(UInt64(0)) { $0 + 2 + udp($1.ssdpPort, $1.wolPort) + 2 }
        let lgs = plan.lgs.reduce(UInt64(0)) { $0 + 3 + udp($1.ssdpPort, $1.wolPort) + 2 }
        // Three listeners, and the pairing and remote connections of a client or two.
        let androidTVs = UInt64(plan.androidTVs.count) * (3 + 4)
        return rokus + samsungs + legacies + lgs + androidTVs + 64  // the command log, stdio, the runtime's own
    }

    /// Raises the limit towards `needed`; the error message when it stays below.
    static func ensure(_ needed: UInt64) -> String? {
        let outcome = DescriptorLimit.raiseToHard()
        if outcome.soft >= needed { return nil }
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var raised = rlimit(rlim_cur: rlim_t(needed), rlim_max: rlim_t(needed))
        if setrlimit(resource, &raised) == 0 { return nil }
        return
            "this fleet needs about \(needed) open descriptors, but the limit is \(outcome.soft) (hard \(outcome.hard));"
            + " raise it (ulimit -Hn \(needed)) or start fewer TVs"
    }
}
