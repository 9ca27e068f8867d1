import Drivers
import Net
import Support
import Synchronization
import TVModel

/// One TV's commands, one at a time in arrival order: each command of a message is planned
/// (checked against the TV and resolved, once), and the plans wait in a bounded queue that a
/// task carries out while any wait. A command the driver refuses, a full queue or a message
/// that waited too long fails the whole message with one `command_failed`, and nothing of it is
/// sent (README › MQTT topics and commands).
final class TVCommandLane: Sendable {
    /// Messages waiting behind the one running (Tests/README.md › Reliability): a TV that stopped
    /// answering fails each command only after its timeout, so a burst of presses must not pile
    /// up without end.
    static let queueLimit = TVCommand.queueLimit
    /// A message that waited longer than this is not sent (Tests/README.md › Reliability): a
    /// volume press or an app launch minutes after the user gave up on it would be a surprise,
    /// not a help.
    static let expiry = Duration.seconds(5)

    private let id: TVID
    private let driver: any TVDriver
    private let context: BridgeContext
    /// Asks for the TV's state soon after a message was carried out, or failed on the way.
    private let requestRefresh: @Sendable () -> Void
    private let jobs = Mutex(OnDemandQueue<CommandJob>())

    init(id: TVID, driver: any TVDriver, context: BridgeContext, requestRefresh: @escaping @Sendable () -> Void) {
        self.id = id
        self.driver = driver
        self.context = context
        self.requestRefresh = requestRefresh
    }

    /// Plans a message's commands and queues them; nil once queued, or the failure's message
    /// (already reported as `command_failed`).
    func submit(_ commands: [CheckedCommand], origin: CommandOrigin) async -> String? {
        var plans: [TVPlan] = []
        for command in commands {
            do {
                plans.append(try driver.plan(command))
            } catch {
                await context.commandFailed(error.message, tv: id.rawValue, origin: origin)
                return error.message
            }
        }
        Trace.mark(.planned)
        let job = CommandJob(plans: plans, origin: origin, received: LoopClock.current.now)
        // The carrier is unstructured (the submitter must not wait for it) and ends when the
        // queue is empty; `stop()` cancels it, which releases a held key.
        let queued = jobs.withLock { $0.add(job, limit: Self.queueLimit) { Task { await self.carryOut() } } }
        guard queued else {
            let message =
                "the command queue of this TV is full (\(Self.queueLimit) commands wait for it); the TV is not keeping up, try again later"
            await context.commandFailed(message, tv: id.rawValue, origin: origin)
            return message
        }
        return nil
    }

    /// Stops carrying commands out (the TV is being removed, or the bridge shuts down).
    func stop() {
        jobs.withLock { $0.carrier }?.cancel()
    }

    /// Carries out queued messages one at a time, in arrival order, until none is left or the
    /// lane stops (what is left then is for a TV being removed or a bridge shutting down).
    private func carryOut() async {
        while !Task.isCancelled, let job = jobs.withLock({ $0.next() }) {
            await execute(job)
        }
    }

    private func execute(_ job: CommandJob) async {
        Trace.mark(.dequeued)
        let waited = (LoopClock.current.now - job.received).wholeMilliseconds
        if waited > Self.expiry.wholeMilliseconds {
            await context.commandFailed(
                "expired: the command waited \(waited) ms behind earlier ones for this TV; commands older than \(Self.expiry.wholeMilliseconds) ms are dropped, not sent late",
                tv: id.rawValue, origin: job.origin, command: job.plans.first?.command)
            return
        }
        for plan in job.plans {
            let started = LoopClock.current.now
            do {
                try await driver.execute(plan)
                // The metadata is built only when it is logged: a command allocates nothing for it.
                if context.logger.isEnabled(.debug) {
                    context.logger.debug(
                        "command done",
                        [
                            ("tv", id.rawValue), ("command", plan.command.name),
                            ("ms", "\((LoopClock.current.now - started).wholeMilliseconds)"),
                        ])
                }
            } catch {
                await context.commandFailed(
                    error.message, tv: id.rawValue, origin: job.origin, command: plan.command)
                requestRefresh()
                return
            }
        }
        requestRefresh()
        if let transaction = job.origin.transaction {
            await context.respond(context.topics.response(id), ok: true, transaction: transaction)
        }
    }
}
