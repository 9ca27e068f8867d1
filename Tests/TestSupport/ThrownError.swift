/// The typed error `body` throws, or nil when it returns: computed first, then asserted on, as
/// an expectation may not hold the closure (Sources/README.md › Conventions).
public func thrownError<Failure: Error>(_ body: () async throws(Failure) -> Void) async -> Failure? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}
