import Net

/// Sending a request and waiting for its reply.
extension WebSocketRPC {
    /// Sends `text` and waits for the reply to `id`, at most `timeout` from now.
    public func call(_ text: String, awaiting id: ID, timeout: Duration?) async throws(RPCError) -> Reply {
        try await reply(to: send(text, awaiting: id, timeout: timeout))
    }

    /// Sends `text`, whose reply will come with `id`, on the current connection and returns at
    /// once: a pipelined caller sends more before it waits (`reply(to:)`). The deadline counts
    /// from before the send; a reply that comes during it is kept.
    public func send(_ text: String, awaiting id: ID, timeout: Duration?) async throws(RPCError) -> Ticket {
        let deadline = timeout.map { LoopClock.current.now + $0 }
        let (connection, ticket) = try reserveOnConnection(id, deadline: deadline)
        do {
            try await connection.send(text: text)
        } catch {
            abandon(ticket)
            throw .sendFailed(error.message)
        }
        return ticket
    }

    private func reserveOnConnection(_ id: ID, deadline: ContinuousClock.Instant?) throws(RPCError) -> (
        WebSocketConnection, Ticket
    ) {
        try state.withLock { state throws(RPCError) in
            guard let connection = state.connection else { throw .notConnected }
            let serial = try state.slots.reserve(id, generation: state.generation)
            return (connection, Ticket(id: id, serial: serial, deadline: deadline))
        }
    }

    /// A request its owner answers itself (`answer(_:_:)`), whatever happens to connections;
    /// its wait ends at `timeout` from now, or only with its answer when nil.
    public func reserve(_ id: ID, timeout: Duration?) throws(RPCError) -> Ticket {
        let deadline = timeout.map { LoopClock.current.now + $0 }
        let serial = try state.withLock { state throws(RPCError) in try state.slots.reserve(id, generation: nil) }
        return Ticket(id: id, serial: serial, deadline: deadline)
    }

    /// The reply to `ticket`: at once when it came already, else when it comes, until the
    /// ticket's deadline (`.timeout`, after which the reply answers nothing).
    public func reply(to ticket: Ticket) async throws(RPCError) -> Reply {
        if let known = state.withLock({ $0.slots.take(ticket.id, serial: ticket.serial) }) { return try known.get() }
        let outcome: Result<Reply, RPCError>?
        if let deadline = ticket.deadline {
            outcome = await withDeadline(deadline) { await self.suspend(on: ticket) }
        } else {
            outcome = await suspend(on: ticket)
        }
        guard let outcome else {
            abandon(ticket)
            if Task.isCancelled { throw .cancelled }
            throw .timeout
        }
        return try outcome.get()
    }

    /// Waits on the ticket's slot until it is answered, or the waiting task is cancelled.
    private func suspend(on ticket: Ticket) async -> Result<Reply, RPCError> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: RPCSlots<ID, Reply>.Waiter) in
                let now = state.withLock { state -> Result<Reply, RPCError>? in
                    if Task.isCancelled {
                        _ = state.slots.remove(ticket.id, serial: ticket.serial)
                        return .failure(.cancelled)
                    }
                    return state.slots.wait(ticket.id, serial: ticket.serial, waiter)
                }
                if let now { waiter.resume(returning: now) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.slots.remove(ticket.id, serial: ticket.serial) }
            waiter?.resume(returning: .failure(.cancelled))
        }
    }

    /// Answers the request waiting on `id` (on `generation`'s connection only, when given:
    /// the reader's). False when nothing waits for it: never asked, answered already, or
    /// given up at its deadline.
    @discardableResult
    public func answer(_ id: ID, _ reply: Reply, generation: Int? = nil) -> Bool {
        let outcome = Result<Reply, RPCError>.success(reply)
        guard let waiter = state.withLock({ $0.slots.answer(id, outcome, generation: generation) }) else {
            return false
        }
        waiter?.resume(returning: outcome)
        return true
    }

    /// Answers every request still waiting, on any connection or none, with `reply` (a shutdown).
    public func answerAll(_ reply: Reply) {
        let outcome = Result<Reply, RPCError>.success(reply)
        let woken = state.withLock { $0.slots.settleAll(outcome) { _ in true } }
        for waiter in woken { waiter.resume(returning: outcome) }
    }

    /// Whether a request on `id` still wants its reply (sent or reserved, not answered yet).
    public func isAwaited(_ id: ID) -> Bool { state.withLock { $0.slots.isAwaited(id) } }

    /// Whether `ticket`'s answer came and waits to be taken.
    public func isAnswered(_ ticket: Ticket) -> Bool {
        state.withLock { $0.slots.isAnswered(ticket.id, serial: ticket.serial) }
    }

    /// Gives the request up: its reply, should it come, answers nothing.
    public func abandon(_ ticket: Ticket) {
        let waiter = state.withLock { $0.slots.remove(ticket.id, serial: ticket.serial) }
        waiter?.resume(returning: .failure(.cancelled))
    }
}
