import Net
import Testing

/// Runs each test case under a `ManualClock` that nobody advances: for a test whose every
/// outcome is what a peer sent or its closing, never a product timeout. However long a busy
/// machine holds the peer up, the test then cannot end in a timeout. Not for a test that
/// starts a simulator whose own behaviour waits for time to pass: that simulator would wait
/// forever.
public struct FrozenClockTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await ManualClock().run { try await function() }
    }
}

extension Trait where Self == FrozenClockTrait {
    /// On a clock that never moves (`FrozenClockTrait`).
    public static var frozenClock: Self { Self() }
}
