/// The start-up burst: a bridge that starts with thousands of TVs (remembered in
/// its state file, configured, or answering one SSDP search) must not open thousands of
/// connections at once. Each TV's first poll round (the poll, its first state and discovery
/// config) runs in a slot of `BridgeContext.firstPolls`, so at most
/// `TVAgent.firstPollConcurrency` run at once; later polls are spread by then, each TV keeping
/// the phase its first poll gave it. A TV that does not answer gives its slot back after
/// `firstPollSlotHold` (`ProbePool.run(holdingAtMost:)`).
///
/// The round, not only the poll: a thousand TVs polled at once and then queued for the
/// registry and the discovery publisher each held their task frames while waiting, which made
/// the bridge's peak memory (and, since freed heap is rarely returned, its memory for good).
extension TVAgent {
    static let firstPollConcurrency = 32
    static let firstPollSlotHold = Duration.seconds(1)

    /// `pollRound(full: true)` inside the start-up bound.
    nonisolated func firstPollRound() async -> Bool? {
        await context.firstPolls.run(holdingAtMost: Self.firstPollSlotHold) { await self.pollRound(full: true) }
    }
}
