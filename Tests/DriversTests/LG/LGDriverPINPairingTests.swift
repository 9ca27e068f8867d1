import Net
import Testing
import Wire

@testable import Drivers

/// PIN pairing against the simulated TV (`tvsim lg --pairing pin`): the TV shows a PIN after
/// the registration, the driver sends it with `pairing/setPin`, the TV answers `registered`.
///
/// The driver runs under a manual clock: the flows need no deadline to pass, so none of the
/// prompt's or the requests' timeouts can fire however slow the machine is; the one test of a
/// timeout moves the clock to it.
@Suite("LG driver PIN pairing")
struct LGDriverPINPairingTests {
    @Test("the TV shows a PIN: pair says so and keeps the registration; pair(pin:) then registers")
    func twoSteps() async throws {
        try await withLGRig({
            $0.pairing = .pin
            $0.pin = "24681357"
        }) { rig in
            let clock = ManualClock()
            try await withLGDriver(rig.driver()) { driver, collector in
                try await clock.run { try await twoSteps(rig, driver, collector) }
            }
        }
    }

    private func twoSteps(_ rig: LGRig, _ driver: LGDriver, _ collector: EventCollector) async throws {
        let shown = await driverError { () async throws(DriverError) in try await driver.pair() }
        #expect(shown?.kind == .pinRequired)
        #expect(shown?.message.contains("shows a PIN") == true)
        try await driver.pair(pin: "24681357")
        await collector.settle { events in events.contains { if case .token = $0 { true } else { false } } }
        let key = try #require(collector.tokens.first)
        #expect(rig.simulator.clientKeys == [key])
        let leaked = rig.logs.lines.filter { $0.contains("24681357") || $0.contains(key) }
        #expect(leaked.isEmpty, "neither the PIN nor the key is logged")
    }

    @Test("a PIN given up front is sent as soon as the TV shows its PIN screen: one step")
    func upFront() async throws {
        try await withLGRig({ $0.pairing = .pin }) { rig in
            let clock = ManualClock()
            try await withLGDriver(rig.driver()) { driver, collector in
                try await clock.run { try await driver.pair(pin: "12345678") }
                await collector.settle { events in events.contains { if case .token = $0 { true } else { false } } }
                #expect(collector.tokens.count == 1)
                #expect(collector.pins.first == rig.certificatePin)
                let actions = rig.entries("pairing").compactMap { $0["action"]?.stringValue }
                #expect(actions == ["pin", "approved"])
            }
        }
    }

    @Test("a wrong PIN: unauthorized with what to do, pairing_required, no key")
    func wrongPIN() async throws {
        try await withLGRig({ $0.pairing = .pin }) { rig in
            let clock = ManualClock()
            try await withLGDriver(rig.driver()) { driver, collector in
                let error = await clock.run {
                    await driverError { () async throws(DriverError) in try await driver.pair(pin: "11112222") }
                }
                #expect(error?.kind == .unauthorized)
                #expect(error?.message.contains("PIN") == true)
                await collector.settle { !$0.isEmpty }
                #expect(collector.pairingMessages.count == 1)
                #expect(collector.tokens.isEmpty && rig.simulator.clientKeys.isEmpty)
                let actions = rig.entries("pairing").compactMap { $0["action"]?.stringValue }
                #expect(actions.contains("wrong_pin"))
            }
        }
    }

    @Test(
        "a PIN sent after the first step waits its own request timeout, not what is left of the registration's"
    )
    func pinWaitsItsOwnTimeout() async throws {
        // The TV shows its PIN screen and never answers the PIN typed.
        try await withLGRig({
            $0.pairing = .pin
            $0.approval = .ignore
        }) { rig in
            let clock = ManualClock()
            try await withLGDriver(rig.driver(approval: .seconds(5))) { driver, _ in
                let shown = await clock.run {
                    await driverError { () async throws(DriverError) in try await driver.pair() }
                }
                #expect(shown?.kind == .pinRequired)
                // The registration's own timer, armed at 0 for the approval time, stays armed.
                #expect(clock.pendingDeadlines.contains(.seconds(5)))
                await clock.advance(to: .seconds(2))
                let sent = Task {
                    await clock.run { () -> (DriverError?, Duration) in
                        let error = await driverError { () async throws(DriverError) in
                            try await driver.pair(pin: "12345678")
                        }
                        return (error, clock.elapsed)
                    }
                }
                let requestTimeout = rig.settings.requestTimeout
                #expect(await clock.waitForTimer(at: .seconds(2) + requestTimeout))
                // Past the registration's timer: it answered its own exchange long ago.
                await clock.advance(to: .seconds(5))
                await clock.advance(to: .seconds(2) + requestTimeout)
                let (error, failedAt) = await sent.value
                #expect(failedAt == .seconds(2) + requestTimeout, "the PIN failed at \(failedAt)")
                #expect(error?.kind == .unauthorized)
                #expect(error?.message.contains("nobody answered") == true)
                let actions = rig.entries("pairing").compactMap { $0["action"]?.stringValue }
                #expect(actions == ["pin", "ignored"])
            }
        }
    }

    @Test("a malformed PIN is refused before anything reaches the TV")
    func malformedPIN() async throws {
        try await withLGRig({ $0.pairing = .pin }) { rig in
            try await withLGDriver(rig.driver()) { driver, _ in
                for pin in ["", "12ab", "1234567890123456789", "12 34"] {
                    let error = await driverError { () async throws(DriverError) in try await driver.pair(pin: pin) }
                    #expect(error?.kind == .rejected, "\(pin)")
                }
                #expect(rig.entries("pairing").isEmpty)
            }
        }
    }
}
