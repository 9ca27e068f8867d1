import Dispatch
import Glibc
import Synchronization
import Testing

/// Runs a suite's tests on two threads of their own instead of the tests' executor.
///
/// Swift Testing runs every test as a task on the global executor: the event loop's one
/// thread (`Tests/TestLoopExecutor`), or the cooperative pool's one thread per core in the
/// control run. Hundreds of synchronous, CPU-heavy codec cases (byte-at-a-time and
/// every-prefix sweeps) would queue there, and a network test that suspends on a socket or
/// timer would wait behind all of them — seconds — and its deadlines fire. On threads of
/// their own, the CPU-bound tests share the cores through the kernel's scheduler instead, and
/// the executor stays responsive for the tests that talk to real peers.
public struct CPUBoundTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(DedicatedThreadsExecutor.cpuBound) {
            try await function()
        }
    }
}

extension Trait where Self == CPUBoundTrait {
    /// Run this suite's tests on dedicated threads (see `CPUBoundTrait`).
    public static var cpuBound: Self { CPUBoundTrait() }
}

/// A task executor with a fixed set of plain threads and a FIFO of jobs.
public final class DedicatedThreadsExecutor: TaskExecutor, @unchecked Sendable {
    public static let cpuBound = DedicatedThreadsExecutor(threads: 2)

    private let jobs = Mutex<[UnownedJob]>([])
    private let available = DispatchSemaphore(value: 0)

    init(threads: Int) {
        for _ in 0..<threads {
            let box = Unmanaged.passRetained(self).toOpaque()
            var thread = pthread_t()
            pthread_create(
                &thread, nil,
                { argument in
                    let executor = Unmanaged<DedicatedThreadsExecutor>.fromOpaque(argument!).takeRetainedValue()
                    executor.serve()
                    return nil
                }, box)
            pthread_detach(thread)
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        jobs.withLock { $0.append(unowned) }
        available.signal()
    }

    private func serve() {
        while true {
            available.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
