import TVModel
import TVSimulators
import Testing

@testable import Drivers

/// A driver told to shut down stays down: a poll that was in flight when the bridge stopped
/// does not open The Frame's art channel again, whose TLS work would race the process's exit.
@Suite("Samsung The Frame: the art channel after shutdown")
struct SamsungArtShutdownTests {
    @Test("a poll that ends after shutdown does not reopen the art channel")
    func pollAfterShutdown() async throws {
        try await withSamsungRig(frame: true) { rig in
            let driver = rig.driver()
            try await driver.pair()
            _ = await driver.poll(full: false)
            let before = await driver.art.channel.isKeepingConnected
            #expect(before, "the art channel runs once the Frame is paired")
            await driver.shutdown()
            _ = await driver.poll(full: false)
            let after = await driver.art.channel.isKeepingConnected
            #expect(!after, "a poll after shutdown opened the art channel again")
        }
    }
}
