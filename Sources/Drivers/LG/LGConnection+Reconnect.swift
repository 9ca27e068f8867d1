import Net

/// The reconnect loop the session's backoff asks for (`LGSession+Reconnect.swift`): one timer
/// at each attempt's instant, on a `Wakeup` that `retrySoon` cuts short.
extension LGConnection {
    func startReconnecting() {
        guard session.startReconnecting(now: LoopClock.current.now) else { return }
        reconnectRun += 1
        let run = reconnectRun
        reconnecting = Task { await self.reconnect(run) }
    }

    func stopReconnecting() {
        reconnectRun += 1
        reconnecting?.cancel()
        reconnecting = nil
        session.stopReconnecting()
    }

    /// Wake-on-LAN was sent: the TV is expected back, so the wait starts again from the first.
    func retrySoon() {
        if session.retrySoon(now: LoopClock.current.now) { reconnectWake.signal() }
    }

    private func reconnect(_ run: Int) async {
        while run == reconnectRun {
            // One timer at the attempt's instant; `retrySoon` wakes the wait to arm an earlier one,
            // `stopReconnecting` cancels it.
            while run == reconnectRun, !Task.isCancelled, let due = session.backoff?.nextAttempt,
                LoopClock.current.now < due
            {
                _ = await reconnectWake.wait(timeout: due - LoopClock.current.now)
            }
            guard run == reconnectRun else { return }
            guard session.shouldAttempt(connected: rpc.isConnected) else { break }
            logger.debug("reconnecting to the TV")
            do {
                try await connectOnce()
                logger.debug("reconnected to the TV")
                break
            } catch {
                guard let delay = session.attemptFailed(now: LoopClock.current.now) else { break }
                logger.debug("reconnecting failed (\(error.message)): next attempt in \(delay)")
            }
        }
        guard run == reconnectRun else { return }
        reconnecting = nil
        session.stopReconnecting()
        if rpc.isConnected { onReconnected() }
    }
}
