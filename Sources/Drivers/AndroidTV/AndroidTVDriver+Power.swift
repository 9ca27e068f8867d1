import Net
import TVModel

extension AndroidTVDriver {
    /// The gap between the two rounds of Wake-on-LAN: a TV in deep sleep may miss the first
    /// while its network comes up.
    static let wakeRepeatGap: Duration = .seconds(3)

    /// Idempotent: POWER only when the TV is not already as asked (RemoteStart said whether it
    /// is on; a TV in standby keeps its session). A TV that does not answer at all sleeps deeply:
    /// ON sends Wake-on-LAN, OFF has nothing to do.
    func power(_ action: PowerAction) async throws(DriverError) {
        do {
            try await link.open()
        } catch  where error.kind == .unreachable || error.kind == .timeout {
            guard action != .off else { return }
            await wake()
            return
        }
        let on = await link.isOn
        switch action {
        case .on where on == true, .off where on == false: return
        case .toggle, .on, .off:
            try await link.send([.key(code: AndroidTVKeys.power, .short)])
            let wanted = !(on ?? false)
            await confirm("power") { $0.started == wanted }
        }
    }

    /// Wake-on-LAN twice, `wakeRepeatGap` apart, then the session is reopened at once; the
    /// bridge's turn-on watch reports a TV that does not come.
    func wake() async {
        let macs = state.withLock { $0.description.identity.macs }
        await DriverWake.send(to: macs, settings: settings, logger: logger)
        try? await EventLoop.sleep(for: Self.wakeRepeatGap)
        await DriverWake.send(to: macs, settings: settings, logger: logger)
        await link.retrySoon()
    }
}
