import Net

/// Reconnecting a lost SSAP socket with a bounded exponential backoff: the first attempt after
/// `reconnectFirst`, then twice as long after each failure up to `reconnectMax`. While it runs
/// polls do not connect (a TV in Suspend is not hammered at every poll); a wake brings the next
/// attempt forward, and a success resets the wait.
extension LGConnection {
    func startReconnecting() {
        guard reconnecting == nil, blocked == nil, configuration.clientKey != nil else { return }
        reconnectRun += 1
        let run = reconnectRun
        reconnectDelay = configuration.reconnectFirst
        nextAttempt = LoopClock.current.now + reconnectDelay
        reconnecting = Task { await self.reconnect(run) }
    }

    func stopReconnecting() {
        reconnectRun += 1
        reconnecting?.cancel()
        reconnecting = nil
        nextAttempt = nil
    }

    /// Wake-on-LAN was sent: the TV is expected back, so the wait starts again from the first.
    func retrySoon() {
        guard reconnecting != nil else { return }
        reconnectDelay = configuration.reconnectFirst
        nextAttempt = LoopClock.current.now + reconnectDelay
        reconnectWake.signal()
    }

    private func reconnect(_ run: Int) async {
        while run == reconnectRun {
            // One timer at the attempt's instant; `retrySoon` wakes the wait to arm an earlier one,
            // `stopReconnecting` cancels it.
            while run == reconnectRun, !Task.isCancelled, let due = nextAttempt, LoopClock.current.now < due {
                _ = await reconnectWake.wait(timeout: due - LoopClock.current.now)
            }
            guard run == reconnectRun else { return }
            guard !rpc.isConnected, blocked == nil, configuration.clientKey != nil else { break }
            logger.debug("reconnecting to the TV")
            do {
                try await connectOnce()
                logger.debug("reconnected to the TV")
                break
            } catch {
                guard blocked == nil else { break }
                reconnectDelay = min(reconnectDelay * 2, configuration.reconnectMax)
                nextAttempt = LoopClock.current.now + reconnectDelay
                logger.debug("reconnecting failed (\(error.message)): next attempt in \(reconnectDelay)")
            }
        }
        guard run == reconnectRun else { return }
        reconnecting = nil
        nextAttempt = nil
        if rpc.isConnected { onReconnected() }
    }
}
