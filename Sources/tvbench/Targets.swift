/// Issue 18's fleet targets, for any fleet size.
///
/// The issue gives two points: 1,000 TVs at ≤ 48 MB and ≤ 4 % of a core, 5,000 TVs at
/// ≤ 160 MB and ≤ 20 %; both ready within 15 s. Other sizes (`--fleet-size`, 50 with
/// `--quick`) take the line through those points: 20 MB plus 28 KB per TV (48 − 28 = 20,
/// (160 − 48) / 4,000 = 0.028 MB), and 0.004 % of a core per TV (the two CPU targets are
/// proportional).
struct FleetTargets {
    let size: Int

    static let readySeconds = 15.0
    static let baseRSSMB = 20.0
    static let rssMBPerTV = 0.028
    static let cpuPercentPerTV = 0.004

    var rssMB: Double { Self.baseRSSMB + Self.rssMBPerTV * Double(size) }
    var cpuPercent: Double { Self.cpuPercentPerTV * Double(size) }
    /// The slope of the RSS target, in KB: what a TV may cost.
    static var rssKBPerTV: Double { rssMBPerTV * 1024 }
}
