import Clients
import Net
import Support

/// What the art channel does with each message: only the TV's own word counts (a
/// `d2d_service_message` from "host" or the id `ms.channel.connect` listed as the host, or
/// with no `from`, which the channel server stamps on everything it relays from a client);
/// the ledger decides what it means.
extension SamsungArtChannel {
    func receive(_ text: String) async {
        let event: SamsungArtEvent
        do {
            event = try SamsungArtEvent.decode(Array(text.utf8))
        } catch {
            logger.debug("ignored an art-channel message: \(error.message)")
            return
        }
        switch event {
        case .connected(let hosts):
            // Only the channel's own greeting names the host; a later "connect" is a client's.
            guard !admitted else { return }
            hostIDs.formUnion(hosts)
            await admit()
        case .ready:
            await admit()
        case .message(let payload, let from):
            guard from.map(hostIDs.contains) ?? true else {
                logOnce(
                    debug: "relayed \(payload.event)",
                    "art channel: ignored \(payload.event) from another client")
                return
            }
            for outcome in ledger.receive(payload) { await act(on: outcome) }
        case .relayed(let name):
            logOnce(debug: "relayed \(name)", "art channel: ignored \(name) relayed from another client")
        case .unauthorized:
            logOnce(
                info: "unauthorized",
                "the TV refused the art channel; pair again (tv2mqtt pair) if art mode stays unknown")
            drop(forget: true)
        case .error(let message):
            logger.debug("art channel: \(message)")
        case .other(let name):
            logOnce(debug: "event \(name)", "art channel: ignored event \(name)")
        }
    }

    /// Once in: the art mode, then the API version, are asked for.
    private func admit() async {
        guard !admitted else { return }
        admitted = true
        try? await send(.getArtMode(id: Self.newID()))
        try? await send(.apiVersion(legacy: false, id: Self.newID()))
    }

    private func act(on outcome: SamsungArtLedger.Outcome) async {
        switch outcome {
        case .changed(let on):
            logger.debug("art mode \(on ? "on" : "off")")
            changed(on)
        case .confirmed(let id):
            rpc.answer(id, .success(()))  // false when the command gave up waiting
        case .refused(.set(let on), let id, let code):
            rpc.answer(
                id, .failure(DriverError(.rejected, "the TV refused art mode \(on ? "on" : "off") (error \(code))")))
        case .refused(.version(legacy: false), _, _):
            try? await send(.apiVersion(legacy: true, id: Self.newID()))
        case .refused(.version(legacy: true), _, let code):
            logger.debug("art channel: the TV answers no API version request (error \(code))")
        case .refused(.status, _, let code):
            logOnce(
                info: "status refused",
                "the TV refused the art-mode status request (error \(code)): its firmware may lack the art API "
                    + "(some 2022 Frames); art_mode stays unknown while the TV is on")
        case .version(let version):
            if loggedVersion != version {
                loggedVersion = version
                logger.info("art API version \(version) (model \(model))")
            } else {
                logger.debug("art API version \(version)")
            }
        case .wedged:
            reopen(
                "art channel: its status replies contradicted its art_mode_changed events twice in a row; "
                    + "reopening it")
        case .unmatched(let name):
            logOnce(
                debug: "event \(name)",
                "art channel: ignored \(name) (no request of ours, no known broadcast)")
        }
    }

    /// Starts the clock on the status request just sent: unanswered, the channel is reopened.
    func armAnswerTimer() {
        answerTimerGeneration += 1
        let generation = answerTimerGeneration
        LoopClock.current.startTask(at: LoopClock.current.now + answerTimeout) { [weak self] in
            await self?.checkAnswered(generation)
        }
    }

    private func checkAnswered(_ generation: Int) {
        guard generation == answerTimerGeneration, rpc.isConnected,
            ledger.statusOverdue(now: LoopClock.current.now, timeout: answerTimeout)
        else { return }
        reopen(
            "art channel: no answer to a status request within \(answerTimeout); reopening it (a Frame whose "
                + "firmware removed the art API, as some 2022 models did, never answers: art_mode then stays unknown)"
        )
    }

    /// Closes the connection to open it again (with a growing backoff); logged once at info.
    private func reopen(_ message: String) {
        logOnce(info: message, message)
        reopening = true
        answerTimerGeneration += 1
        if let closing = rpc.connection { Task { _ = try? await closing.close() } }
    }

    private func logOnce(info key: String, _ message: String) {
        if loggedOnce.insert(key).inserted { logger.info(message) } else { logger.debug(message) }
    }

    /// Debug lines about what the TV or others send, once each (bounded).
    private func logOnce(debug key: String, _ message: String) {
        guard seenEvents.count < 64, seenEvents.insert(key).inserted else { return }
        logger.debug(message)
    }
}
