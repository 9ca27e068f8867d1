import Net
import Wire

/// A silent Roku (`RokuSimState.silent`): connections are accepted and requests read, but none
/// is answered, so a client sees timeouts, as after the Roku OS 14.1.4 update that left some
/// players mute until "Control by mobile apps" was changed. `/sim/state` keeps answering, so a
/// test or a user can end the silence.
extension RokuSimulator {
    /// nil when the request is to be handled now; otherwise it was held until the silence
    /// ended (or the simulator stopped), and is answered 503 without being carried out: its
    /// client gave up long ago, and a keypress done minutes late would surprise everyone.
    func heldWhileSilent(_ request: HTTPRequest) async -> SimHTTPReply? {
        guard core.withLock({ $0.state.silent }), !request.path.hasPrefix("/sim/") else { return nil }
        while core.withLock({ $0.state.silent && !common.isStopped }) {
            do {
                try await EventLoop.sleep(for: .milliseconds(50), clock: .system)
            } catch {
                break
            }
        }
        return SimHTTPReply(SimResponse.plain(503, ""))
    }
}
