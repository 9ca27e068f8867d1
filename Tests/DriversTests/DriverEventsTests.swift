import Drivers
import Synchronization
import TVModel
import Testing

/// `DriverEvents`: a driver's events reach their one consumer in order, whether it is a
/// handler (the bridge) or a task iterating them, and none is lost before the consumer comes.
@Suite("Driver events")
struct DriverEventsTests {
    static func warning(_ index: Int) -> DriverEvent { .warning("event \(index)") }

    @Test("a handler gets the events kept before it came, then each as it is yielded, in order")
    func handlerInOrder() {
        let events = DriverEvents()
        events.yield(Self.warning(0))
        events.yield(Self.warning(1))
        let received = Mutex<[DriverEvent]>([])
        events.deliver { event in received.withLock { $0.append(event) } }
        events.yield(Self.warning(2))
        events.finish()
        events.yield(Self.warning(3))  // after finish: ignored
        let all = received.withLock { $0 }
        #expect(all == (0...2).map(Self.warning))
    }

    @Test("events yielded from many threads at once all arrive, each thread's in its order")
    func concurrentYields() async {
        let events = DriverEvents()
        let received = Mutex<[DriverEvent]>([])
        events.deliver { event in received.withLock { $0.append(event) } }
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<8 {
                group.addTask { for index in 0..<100 { events.yield(Self.warning(thread * 1000 + index)) } }
            }
        }
        let all = received.withLock { $0 }
        #expect(all.count == 800)
        for thread in 0..<8 {
            let mine = all.filter { event in
                guard case .warning(let text) = event, let number = Int(text.dropFirst(6)) else { return false }
                return number / 1000 == thread
            }
            let expected = (0..<100).map { Self.warning(thread * 1000 + $0) }
            #expect(mine == expected)
        }
    }

    @Test("iterating: kept events first, then new ones; finish ends the loop")
    func iterating() async {
        let events = DriverEvents()
        events.yield(Self.warning(0))
        let reader = Task {
            var seen: [DriverEvent] = []
            for await event in events { seen.append(event) }
            return seen
        }
        events.yield(Self.warning(1))
        try? await Task.sleep(for: .milliseconds(50))
        events.yield(Self.warning(2))
        events.finish()
        #expect(await reader.value == (0...2).map(Self.warning))
    }

    @Test("iterating after finish ends at once")
    func iteratingAfterFinish() async {
        let events = DriverEvents()
        events.yield(Self.warning(0))
        events.finish()
        var count = 0
        for await _ in events { count += 1 }
        #expect(count == 0)
    }
}
