import Drivers
import Support
import Synchronization
import Testing

/// On an open remote channel a key goes from the driver to the socket on the caller's own task:
/// the channel's I/O queue and the WebSocket's outbox are carried by the sender when idle.
@Suite("Samsung remote channel: a key is sent on the caller's task")
struct SamsungChannelCarryTests {
    /// Records which task logged each frame the channel sent ("send …", logged as it goes out).
    /// Tasks are told apart by identity: a task started by the caller would inherit its
    /// task-local values.
    final class SendSink: LogSink {
        let sends = Mutex<[(task: Int?, message: String)]>([])

        func write(_ record: LogRecord) {
            guard record.message.hasPrefix("send ") else { return }
            let task = currentTask()
            sends.withLock { $0.append((task, record.message)) }
        }
    }

    @Test("after the channel is open, each key's frame goes out on the task that sent it")
    func keysOnCallersTask() async throws {
        try await withSamsungRig { rig in
            let sink = SendSink()
            var settings = rig.settings
            settings.logger = Logger(label: "test", sink: sink, threshold: LogThreshold(.debug))
            try await withDriver(rig.driver(settings: settings)) { driver, _ in
                // The first key opens the channel; frames released by the TV's approval are sent
                // by the channel's own task.
                try await driver.perform(.key(.shared(.home), repeat: 1))
                _ = try await rig.keys(atLeast: 1)
                let before = sink.sends.withLock { $0.count }
                let caller = currentTask()
                try await driver.perform(.key(.shared(.up), repeat: 2))
                try await driver.perform(.key(.vendor("KEY_VOLUP"), repeat: 1))
                let keys = try await rig.keys(atLeast: 4)
                #expect(keys == ["KEY_HOME Click", "KEY_UP Click", "KEY_UP Click", "KEY_VOLUP Click"])
                let sends = sink.sends.withLock { Array($0.dropFirst(before)) }
                #expect(sends.count == 3)
                let onCaller = sends.map { $0.task == caller }
                #expect(onCaller == [true, true, true])
            }
        }
    }
}

/// The running task's identity (alive for as long as it is compared).
private func currentTask() -> Int? {
    withUnsafeCurrentTask { $0?.hashValue }
}
