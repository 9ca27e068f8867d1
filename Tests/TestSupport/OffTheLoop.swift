import Support

/// Runs a test's synchronous, slow work (writing a file of megabytes, a CPU-heavy fixture, a
/// blocking call) on one of Dispatch's threads, as the library does with `BlockingWork`: the
/// tests' tasks share the event loop's one thread, as tv2mqtt's do, and this work would hold
/// every other test's task (and its deadlines) for that long. Expectations stay outside `work`:
/// on a Dispatch thread they would not know their test.
public func offTheLoop<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await BlockingWork.run { Result { try work() } }.get()
}
