import Clients
import Net
import Testing

/// A TV may send the initial NOTIFY before the answer to its SUBSCRIBE (with the SID) reaches
/// us. The listener holds such a NOTIFY up to `subscribeRaceWait` (1 s): woken by the SID, not
/// by a poll's next tick. Real sockets, under a clock that moves only when the test says.
@Suite("GENA listener: a NOTIFY ahead of its SUBSCRIBE's answer")
struct GENANotifyListenerRaceTests {
    typealias Slots = GENANotifyListenerSlotTests

    /// A listener under `clock` whose one subscriber (127.0.0.2) has a SUBSCRIBE on its way, and
    /// the status its NOTIFY gets, once that NOTIFY waits for the SID.
    static func notifyAhead(_ clock: ManualClock) async throws -> (
        GENANotifyListener, GENARegistration, status: Task<Int?, any Error>
    ) {
        let (listener, registration) = try await clock.run {
            let listener = GENANotifyListener(port: 0, bindHost: "127.0.0.1", connectionDeadline: .seconds(60))
            let registration = try listener.register(host: "127.0.0.2") { _ in nil }
            listener.subscribing(registration)
            return (listener, registration)
        }
        // The answer waits for the test's clock: the 30 s hang bound covers a loaded machine.
        let status = Task {
            try await Slots.send(Slots.notify(registration), from: "127.0.0.2", to: listener, hangBound: .seconds(30))
        }
        #expect(await clock.waitForTimer(at: .seconds(1)), "the NOTIFY is not waiting for its SID")
        return (listener, registration, status)
    }

    @Test("answered 200 as soon as the SID comes, with no time passing")
    func sidArrives() async throws {
        let clock = ManualClock()
        let (listener, registration, status) = try await Self.notifyAhead(clock)
        defer { listener.unregister(registration) }
        listener.expect(sid: Slots.sid, for: registration)
        #expect(try await status.value == 200)
        #expect(clock.elapsed == .zero)
    }

    @Test("refused 412 at exactly 1 s when the SID never comes")
    func sidNeverComes() async throws {
        let clock = ManualClock()
        let (listener, registration, status) = try await Self.notifyAhead(clock)
        defer { listener.unregister(registration) }
        await clock.advance(to: .seconds(1) - .nanoseconds(1))
        #expect(clock.pendingDeadlines.first == .seconds(1), "the wait ended before its second")
        await clock.advance(to: .seconds(1))
        #expect(try await status.value == 412)
    }
}
