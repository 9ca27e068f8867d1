import TestSupport

/// The captured Roku answers in Tests/Fixtures/roku; empty when one is missing, which its
/// decoder then refuses.
enum RokuFixtures {
    static func bytes(_ name: String) -> [UInt8] { (try? TestFixtures.bytes("roku/" + name)) ?? [] }
}
