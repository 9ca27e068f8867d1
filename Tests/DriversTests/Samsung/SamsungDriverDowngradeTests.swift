import Drivers
import Net
import TVModel
import TVSimulators
import Testing

/// A TCP port that accepts every connection and closes it at once: what a reset of 8002 looks
/// like to the driver (the TLS handshake fails).
final class ResettingPort: Sendable {
    let listener: TCPListener
    private let task: Task<Void, Never>

    init(host: String) throws {
        let listener = try TCPListener.bind(host: host, port: 0)
        self.listener = listener
        task = Task {
            while !Task.isCancelled {
                guard let connection = try? await listener.accept() else { return }
                connection.close()
            }
        }
    }

    var port: UInt16 { listener.address.port }

    func stop() async {
        listener.close()
        task.cancel()
        await task.value
    }
}

/// Issue 13 item 5: no downgrade to cleartext once a TV is paired.
@Suite("Samsung driver: no cleartext fallback once paired", .serialized)
struct SamsungDriverDowngradeTests {
    @Test("a paired TV whose 8002 is reset: the command fails, nothing is sent on 8001, TLS again once 8002 is back")
    func resetDoesNotDowngrade() async throws {
        try await withSamsungRig { rig in
            let paired = try await pairedToken(rig)
            let reset = try ResettingPort(host: rig.simulator.host)
            var options = SamsungDriverOptions(
                securePort: reset.port, upnpPort: rig.simulator.portUPnP, token: paired.token,
                certificatePin: paired.pin, approvalTimeout: .seconds(3), appListTimeout: .seconds(2),
                wakeSettle: .seconds(1))
            let resetDriver = SamsungDriver(
                description: rig.description, settings: rig.settings, samsung: rig.samsung, options: options)
            do {
                try await withDriver(resetDriver) { driver, _ in
                    for _ in 0..<2 {
                        let error = await driverError { () async throws(DriverError) in
                            try await driver.perform(.text("hunter2"))
                        }
                        #expect(error?.kind == .unreachable)
                        #expect(error?.message.contains("never on port 8001") == true, "\(String(describing: error))")
                    }
                    try await Task.sleep(for: .milliseconds(300))
                    #expect(rig.entries("text").isEmpty, "typed text went to port 8001 in clear")
                    #expect(rig.remoteKeys.isEmpty)
                }
            } catch {
                await reset.stop()
                throw error
            }
            await reset.stop()
            // The same secrets with the real 8002: TLS, the pin checked, no prompt.
            options.securePort = rig.simulator.portWSS
            let driver = SamsungDriver(
                description: rig.description, settings: rig.settings, samsung: rig.samsung, options: options)
            try await withDriver(driver) { driver, _ in
                try await driver.perform(.key(.shared(.home), repeat: 1))
                #expect(try await rig.keys(atLeast: 1) == ["KEY_HOME Click"])
            }
        }
    }
}
