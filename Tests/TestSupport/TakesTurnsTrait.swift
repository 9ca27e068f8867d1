import Testing

/// A test that saturates the loop's thread or the cores (Chromium, a 15 MB state file, DHE
/// handshakes with `openssl`) takes turns with the other heavy tests (`DescriptorTurns`), so
/// at most one of them runs beside the rest of the suite. Not for a suite whose tests call
/// `DescriptorTurns.run` themselves: the turns are not reentrant.
public struct TakesTurnsTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await DescriptorTurns.run { try await function() }
    }
}

extension Trait where Self == TakesTurnsTrait {
    /// Takes turns with the other heavy tests (`TakesTurnsTrait`).
    public static var takesTurns: Self { Self() }
}
