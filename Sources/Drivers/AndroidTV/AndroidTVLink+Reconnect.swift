import Net

/// Reopening a lost remote session with the backoff LG's uses: the first attempt after
/// `reconnectFirst`, then twice as long after each failure up to `reconnectMax`. A wake brings
/// the next attempt forward; a success, a pairing that is gone, or `shutdown` ends it.
extension AndroidTVLink {
    static let reconnectFirst: Duration = .seconds(1)
    static let reconnectMax: Duration = .seconds(60)

    func startReconnecting() {
        guard reconnecting == nil, configuration.pin != nil, !isShutDown else { return }
        reconnectRun += 1
        let run = reconnectRun
        reconnecting = Task { await self.reconnect(run) }
    }

    /// Wake-on-LAN was sent: the TV is expected back, so the next attempt comes at once.
    func retrySoon() {
        if reconnecting != nil { reconnectWake.signal() } else { startReconnecting() }
    }

    /// Ends the reconnection and the session for good (the driver is shutting down).
    func shutdown() {
        isShutDown = true
        reconnectRun += 1
        reconnecting?.cancel()
        reconnecting = nil
        close()
    }

    private func reconnect(_ run: Int) async {
        var delay = Self.reconnectFirst
        while run == reconnectRun, !Task.isCancelled {
            _ = await reconnectWake.wait(timeout: delay)
            guard run == reconnectRun, !Task.isCancelled else { return }
            if connection != nil, session?.ready == true { break }
            do {
                try await open()
                logger.debug("reopened the remote session")
                break
            } catch  where error.kind == .unauthorized {
                break
            } catch {
                delay = min(delay * 2, Self.reconnectMax)
                logger.debug("reopening the remote session failed (\(error.message)): next attempt in \(delay)")
            }
        }
        if run == reconnectRun { reconnecting = nil }
    }
}
