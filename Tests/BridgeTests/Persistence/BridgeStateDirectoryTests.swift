import Configuration
import Glibc
import Harness
import Testing

@testable import Bridge

/// The bridge checks its state directory before it starts (`StateStore.checkDirectory`): one
/// that others can write holds tokens anybody could replace.
@Suite("Bridge: a hostile state directory")
struct BridgeStateDirectoryTests {
    @Test("a group- or world-writable state directory stops the bridge at start with a clear error")
    func sharedDirectory() throws {
        let directory = try TemporaryDirectory(prefix: "state-safety")
        defer { directory.remove() }
        for mode: mode_t in [0o777, 0o770, 0o1777] {
            #expect(chmod(directory.path, mode) == 0)
            var configuration = BridgeConfiguration()
            configuration.stateDir = directory.path
            configuration.mqtt.server = BrokerAddress(useTLS: false, host: "127.0.0.1", port: 1)
            var started = true
            do {
                _ = try BridgeService(configuration: configuration, logger: .disabled, factory: RecordingFactory([]))
            } catch {
                started = false
                #expect("\(error)".contains("chmod 700"), "\(error)")
            }
            #expect(
                !started, "the bridge started on a state directory others can write (mode \(String(mode, radix: 8)))")
        }
    }
}
