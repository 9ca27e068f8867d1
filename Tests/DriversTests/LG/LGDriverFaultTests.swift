import Drivers
import Net
import TVModel
import TVSimulators
import Testing
import Wire

/// The LG driver against a simulated TV that misbehaves on purpose (`LGFault`), over real sockets.
@Suite("LG driver against a misbehaving TV", .serialized)
struct LGDriverFaultTests {
    @Test(
        "garbage, unknown ids and unknown types answer nothing asked: the command times out clearly",
        arguments: [LGFault.garbage, .unknownIDs, .unknownType])
    func unanswered(fault: LGFault) async throws {
        try await withLGRig { rig in
            let paired = try await rig.pair()
            var settings = rig.settings
            settings.requestTimeout = .seconds(2)
            // Under a manual clock: connected and registered before the fault (a busy machine
            // once spent the registration's 2 s), then the command times out at exactly 2 s.
            let clock = ManualClock()
            try await withLGDriver(driver(rig, paired, settings)) { driver, _ in
                let polled = await clock.run { await driver.poll(full: false) }
                #expect(polled.reachable)
                await clock.advance(to: .seconds(10))  // the connection's own timers are past
                rig.simulator.setFault(fault)
                let sent = Task {
                    await clock.run { () -> (DriverError?, Duration) in
                        let error = await driverError { () async throws(DriverError) in
                            try await driver.perform(.volume(20))
                        }
                        return (error, clock.elapsed)
                    }
                }
                #expect(await clock.waitForTimer(at: .seconds(12)))
                await clock.advance(to: .seconds(12))
                let (error, failedAt) = await sent.value
                #expect(error?.kind == .timeout, "\(fault): \(String(describing: error))")
                #expect(error?.message.contains("did not answer") == true)
                #expect(failedAt == .seconds(12), "\(fault): failed at \(failedAt)")
            }
        }
    }

    @Test("a message over 4 MiB ends the connection: the command fails, nothing of it is read")
    func huge() async throws {
        try await withLGRig { rig in
            let paired = try await rig.pair()
            rig.simulator.setFault(.huge(5 << 20))
            try await withLGDriver(driver(rig, paired, rig.settings)) { driver, _ in
                let error = await driverError { () async throws(DriverError) in try await driver.perform(.volume(20)) }
                #expect(error != nil)
                let snapshot = await driver.poll(full: false)
                #expect(snapshot.volume != 20)
            }
        }
    }

    @Test("a pointer socket on another host is refused: no button is sent anywhere")
    func pointerElsewhere() async throws {
        try await withLGRig { rig in
            let paired = try await rig.pair()
            // Another loopback host: were the refusal broken, nothing would leave the machine.
            rig.simulator.setFault(.pointerHost("127.0.0.99"))
            try await withLGDriver(driver(rig, paired, rig.settings)) { driver, _ in
                let error = await driverError { () async throws(DriverError) in
                    try await driver.perform(.key(.shared(.home), repeat: 1))
                }
                #expect(error?.kind == .badResponse)
                #expect(error?.message.contains("another host") == true)
                #expect(rig.buttons.isEmpty)
            }
        }
    }

    private func driver(_ rig: LGRig, _ paired: (key: String, pin: String), _ settings: DriverSettings) -> LGDriver {
        LGDriver(
            description: rig.description, settings: settings,
            options: LGDriverOptions(
                securePort: rig.simulator.portWSS ?? 1, plainPort: rig.simulator.portWS, clientKey: paired.key,
                certificatePin: paired.pin))
    }
}
