import Net
import Support
import Wire

extension MQTTClient {
    /// Runs one connection until it ends; returns why it ended.
    func serve(_ stream: any ByteStream) async -> String {
        serving = true
        outbox = []
        closeReason = nil
        acceptedThisConnection = false
        lastRefusal = nil
        timerArmedUntil = nil
        perform(session.connectionOpened(now: LoopClock.current.now))
        let ended = await withTaskGroup(of: String?.self) { group -> String in
            group.addTask { await self.readLoop(stream) }
            group.addTask { await self.writeLoop(stream) }
            group.addTask { await self.timerLoop() }
            // Whichever task ends first ends the connection. A task returns nil only when it
            // was cancelled (run() itself cancelled): waiting on for a non-nil reason would then
            // hang on the writer, which sleeps until woken and is woken only below.
            let reason = await group.next() ?? nil
            group.cancelAll()
            stream.close()
            wakeWriter()
            return reason ?? "connection ended"
        }
        let reason = closeReason.map(\.description) ?? ended
        session.connectionClosed()
        serving = false
        resumeDrainWaiters()
        for waiter in stopWaiters { waiter.resume() }
        stopWaiters.removeAll()
        return reason
    }

    /// Reads, decodes, and hands whole packets to the session in batches.
    nonisolated func readLoop(_ stream: any ByteStream) async -> String? {
        var decoder = MQTTFrameDecoder(maxPacketSize: configuration.maxPacketSize)
        while !Task.isCancelled {
            let bytes: [UInt8]
            do {
                bytes = try await stream.read(maxBytes: 64 * 1024, deadline: nil)
            } catch {
                return Task.isCancelled ? nil : "read failed: \(error)"
            }
            Trace.mark(.mqttRead)
            if bytes.isEmpty {
                // A close mid-packet is a broken broker or path, not an orderly close: say so.
                return decoder.isInsidePacket
                    ? "the broker closed the connection in the middle of a packet (\(decoder.bufferedByteCount) bytes of it buffered)"
                    : "the broker closed the connection"
            }
            decoder.append(bytes)
            var packets: [MQTTFrame] = []
            do {
                // An oversize PUBLISH comes out as a frame of its own, its body dropped as it
                // arrives: anyone who may publish to a subscribed topic can send one, and
                // closing for it would only bring it back (retained) on the next connection.
                while let packet = try decoder.nextFrame() { packets.append(packet) }
            } catch {
                if !packets.isEmpty { await received(packets) }
                // An oversize packet is well-formed: "malformed" would send the operator hunting
                // for a broker bug instead of raising maxPacketSize.
                let what =
                    error.kind == .tooLarge
                    ? "packet from the broker too large" : "malformed packet from the broker"
                return "\(what): \(error)"
            }
            if !packets.isEmpty { await received(packets) }
        }
        return nil
    }

    /// Writes whatever the outbox holds, coalesced, until the connection closes.
    ///
    /// In slices, each with its own deadline: a slow link that takes a minute over a
    /// discovery republish is making progress, and cutting it (to reconnect and republish
    /// it all again) would never end. Only a slice that does not go out in time is a failure.
    nonisolated func writeLoop(_ stream: any ByteStream) async -> String? {
        let slice = MQTTClientConfiguration.writeSliceSize
        while let chunk = await takeOutbox() {
            do {
                var start = 0
                while start < chunk.count {
                    let end = min(chunk.count, start + slice)
                    let part = start == 0 && end == chunk.count ? chunk : Array(chunk[start..<end])
                    try await stream.write(part, deadline: LoopClock.current.now + configuration.writeTimeout)
                    start = end
                }
            } catch {
                return Task.isCancelled ? nil : "write failed: \(error)"
            }
        }
        return await closeReason?.description ?? (Task.isCancelled ? nil : "closed")
    }

    /// Calls `tick` at the session's deadlines (CONNACK, PINGREQ, PINGRESP).
    nonisolated func timerLoop() async -> String? {
        while !Task.isCancelled {
            let deadline = await armTimer()
            _ = await timerWakeup.wait(timeout: LoopClock.current.now.duration(to: deadline))
            if Task.isCancelled { return nil }
            await tick()
        }
        return nil
    }

    /// The deadline the timer waits for next. `received(_:)` cuts the wait short: CONNACK
    /// replaces the CONNACK deadline (10 s) with the keep-alive one, which is earlier when
    /// keep-alive is shorter; waiting on to the old one would send the first PINGREQ late and
    /// let the broker drop us after 1.5 × keep-alive.
    func armTimer() -> ContinuousClock.Instant {
        let deadline = session.nextDeadline ?? LoopClock.current.now + .seconds(1)
        timerArmedUntil = deadline
        return deadline
    }

    func tick() {
        perform(session.tick(now: LoopClock.current.now))
    }

    func received(_ frames: [MQTTFrame]) {
        let now = LoopClock.current.now
        for frame in frames {
            switch frame {
            case .packet(let packet):
                logger.trace("received \(packet.typeName)")
                perform(session.received(packet, now: now))
            case .oversizePublish(let message):
                logger.warning(
                    "skipped a message on \(message.topic): \(message.size) bytes exceed the \(configuration.maxPacketSize)-byte limit",
                    [("qos", "\(message.qos.rawValue)"), ("retain", "\(message.retain)")])
                perform(session.receivedOversize(message, now: now))
            }
        }
        // Only CONNACK and PINGRESP move the deadline earlier; a comparison per batch is all
        // the hot path pays. An early wake-up is harmless: tick() does nothing before a deadline.
        if let next = session.nextDeadline, let armed = timerArmedUntil, next < armed {
            timerArmedUntil = next
            timerWakeup.signal()
        }
    }

    /// The next chunk to write; waits while there is none. nil once the connection is
    /// closing and everything queued before the close was handed out.
    func takeOutbox() async -> [UInt8]? {
        while outbox.isEmpty {
            if closeReason != nil || !serving || Task.isCancelled { return nil }
            await withCheckedContinuation { writerWake = $0 }
        }
        let chunk = outbox
        outbox = []
        resumeDrainWaiters()
        return chunk
    }

    func resumeDrainWaiters() {
        for waiter in drainWaiters.values { waiter.resume() }
        drainWaiters.removeAll()
    }

    func wakeWriter() {
        writerWake?.resume()
        writerWake = nil
    }

    /// Carries out the session's actions, in order.
    func perform(_ actions: [MQTTSessionAction]) {
        for action in actions {
            switch action {
            case .send(let packet):
                do {
                    try packet.encode(into: &outbox)
                } catch {
                    logger.error("cannot encode \(packet.typeName): \(error)")  // the session validated it; not expected
                }
                wakeWriter()
            case .connected(let sessionPresent):
                acceptedThisConnection = true
                acceptedAt = LoopClock.current.now
                logger.info("connected to MQTT broker \(configuration.serverDescription)")
                if !sessionPresent { resubscribe() }
                setState(.connected(sessionPresent: sessionPresent))
            case .connectRefused(let code):
                lastRefusal = code
                logger.error("the MQTT broker refused the connection: \(code)")
            case .deliver(let publish):
                Trace.mark(.mqttDecoded)
                messageSink.yield(
                    MQTTMessage(
                        topic: publish.topic, payload: publish.payload, qos: publish.qos, retain: publish.retain
                    ))
            case .publishCompleted(let id):
                if case .publish(let continuation) = waiters.removeValue(forKey: id) {
                    continuation.resume(returning: .success(()))
                }
            case .subscribeCompleted(let id, let codes):
                completeSubscribe(id, codes)
            case .unsubscribeCompleted(let id):
                if case .unsubscribe(let continuation) = waiters.removeValue(forKey: id) {
                    continuation.resume(returning: .success(()))
                }
            case .closeConnection(let reason):
                closeReason = reason
                wakeWriter()
            }
        }
    }

    private func resubscribe() {
        guard !subscriptions.isEmpty else { return }
        do {
            let (id, actions) = try session.subscribe(subscriptions, now: LoopClock.current.now)
            waiters[id] = .resubscribe(subscriptions)
            waiterTokens[id] = nil  // nobody waits: no cancellation may end it
            perform(actions)
        } catch {
            logger.error("cannot re-subscribe: \(error)")
        }
    }

    private func completeSubscribe(_ id: UInt16, _ codes: [MQTTSubAckReturnCode]) {
        switch waiters.removeValue(forKey: id) {
        case .subscribe(let continuation):
            continuation.resume(returning: .success(codes))
        case .resubscribe(let filters):
            for (filter, code) in zip(filters, codes) where code == .failure {
                logger.error("the MQTT broker refused the subscription to \(filter.filter)")
            }
        default:
            break
        }
    }
}
