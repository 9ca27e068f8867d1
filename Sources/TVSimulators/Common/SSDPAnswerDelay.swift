import Support
import Wire

/// How long a simulated TV waits before answering an M-SEARCH.
///
/// UPnP Device Architecture 1.1 §1.3.3: a device answers a multicast (or broadcast) search
/// after a random delay between 0 and MX seconds, so a thousand devices do not answer in the
/// same instant and overflow the searcher's receive buffer; a unicast search is answered at
/// once. Real TVs do this; a fleet of simulated ones must too, or discovery of a large fleet
/// is measured against an answer storm no real network sees.
enum SSDPAnswerDelay {
    /// `unicast`: the search came to the TV's own address (answered without delay).
    /// `window`: the simulator's `ssdpAnswerWindow`, nil for MX.
    static func random(for search: SSDPSearch, unicast: Bool, window: Duration?) -> Duration {
        guard !unicast else { return .zero }
        let milliseconds = Int((window ?? .seconds(search.mx)).wholeMilliseconds)
        return .milliseconds(Int.random(in: 0...max(0, milliseconds)))
    }
}
