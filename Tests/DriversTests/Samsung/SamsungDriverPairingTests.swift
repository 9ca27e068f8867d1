import Drivers
import TVModel
import TVSimulators
import Testing
import Wire

@Suite("Samsung driver pairing against the simulated TV", .serialized)
struct SamsungDriverPairingTests {
    @Test("accept: pair emits the token and the pin; a driver with them reconnects without a prompt")
    func accept() async throws {
        try await withSamsungRig { rig in
            let paired = try await pairedToken(rig)
            #expect(rig.simulator.issuedTokens == [paired.token])
            let fingerprint = rig.simulator.certificateSHA256.map { byte in
                String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
            }.joined()
            #expect(paired.pin == fingerprint)
            try await withDriver(rig.driver(token: paired.token, pin: paired.pin)) { driver, collector in
                try await driver.perform(.key(.shared(.back), repeat: 1))
                let keys = try await rig.keys(atLeast: 1)
                #expect(keys == ["KEY_RETURN Click"])
                #expect(rig.entries("pairing").count == 1)
                #expect(collector.tokens.isEmpty)
            }
        }
    }

    @Test("deny: the command fails unauthorized with help, pairing_required once, nothing sent")
    func deny() async throws {
        try await withSamsungRig(pairing: .deny) { rig in
            try await withDriver(rig.driver()) { driver, collector in
                let first = await driverError { () async throws(DriverError) in
                    try await driver.perform(.key(.shared(.home), repeat: 1))
                }
                #expect(first?.kind == .unauthorized)
                #expect(first?.message.contains("choose Allow") == true)
                let second = await driverError { () async throws(DriverError) in
                    try await driver.perform(.key(.shared(.home), repeat: 1))
                }
                #expect(second?.kind == .unauthorized)
                await collector.settle { !$0.isEmpty }
                #expect(collector.pairingMessages.count == 1)
                #expect(rig.entries("remote_key").isEmpty)
                #expect(rig.entries("pairing").count == 1)
                let snapshot = await driver.poll(full: false)
                #expect(snapshot.pairingRequired == true)
                let paired = await driverError { () async throws(DriverError) in try await driver.pair() }
                #expect(paired?.kind == .unauthorized)
            }
        }
    }

    @Test("ignore: pairing times out with what to do on the TV")
    func ignore() async throws {
        try await withSamsungRig(pairing: .ignore) { rig in
            try await withDriver(rig.driver(approval: .seconds(1))) { driver, collector in
                let error = await driverError { () async throws(DriverError) in try await driver.pair() }
                #expect(error?.kind == .timeout)
                #expect(error?.message.contains("Nobody answered") == true)
                await collector.settle { !$0.isEmpty }
                #expect(collector.pairingMessages.count == 1)
                #expect(collector.tokens.isEmpty)
            }
        }
    }

    @Test("tokenless: approved without a token; commands go through")
    func tokenless() async throws {
        try await withSamsungRig(pairing: .tokenless) { rig in
            try await withDriver(rig.driver()) { driver, collector in
                try await driver.pair()
                try await driver.perform(.key(.shared(.up), repeat: 1))
                let keys = try await rig.keys(atLeast: 1)
                #expect(keys == ["KEY_UP Click"])
                #expect(collector.tokens.isEmpty)
                #expect(collector.pins.count == 1)
            }
        }
    }

    @Test("a changed certificate: certificateChanged, the command fails, the token is not used")
    func certificateChanged() async throws {
        try await withSamsungRig { rig in
            let paired = try await pairedToken(rig)
            try await rig.simulator.replaceCertificate()
            try await withDriver(rig.driver(token: paired.token, pin: paired.pin)) { driver, collector in
                let error = await driverError { () async throws(DriverError) in
                    try await driver.perform(.key(.shared(.home), repeat: 1))
                }
                #expect(error?.kind == .unauthorized)
                #expect(error?.message.contains("certificate changed") == true)
                await collector.settle { !$0.isEmpty }
                #expect(collector.certificateChanges == 1)
                #expect(rig.entries("remote_key").isEmpty)
                #expect(rig.entries("pairing").count == 1)
                // The user accepts the new certificate by pairing again.
                try await driver.pair()
                await collector.settle { events in events.contains { if case .token = $0 { true } else { false } } }
                #expect(collector.tokens.count == 1)
                #expect(collector.pins.count == 1)
            }
        }
    }
}

/// Issue 13 item 6: a flag raised by someone else answering on the TV's address clears itself.
@Suite("Samsung driver: certificate_changed recovers when the real TV is back", .serialized)
struct SamsungDriverCertificateRecoveryTests {
    @Test("another certificate on 8002 stops the channel; the pinned one back, the next poll clears it, no pairing")
    func recovers() async throws {
        try await withSamsungRig { rig in
            let paired = try await pairedToken(rig)
            try await rig.simulator.replaceCertificate()
            try await withDriver(rig.driver(token: paired.token, pin: paired.pin)) { driver, collector in
                let refused = await driverError { () async throws(DriverError) in
                    try await driver.perform(.key(.shared(.home), repeat: 1))
                }
                #expect(refused?.kind == .unauthorized)
                _ = await driver.poll(full: false)
                let stillRefused = await driverError { () async throws(DriverError) in
                    try await driver.perform(.key(.shared(.home), repeat: 1))
                }
                #expect(stillRefused?.kind == .unauthorized, "a poll with the other certificate changes nothing")
                rig.simulator.restoreCertificate()
                _ = await driver.poll(full: false)
                try await driver.perform(.key(.shared(.up), repeat: 1))
                #expect(try await rig.keys(atLeast: 1) == ["KEY_UP Click"])
                try await Task.sleep(for: .milliseconds(200))
                #expect(collector.certificateChanges == 1)
                #expect(collector.tokens.isEmpty, "no pairing happened")
                #expect(collector.pins.isEmpty, "the pin was not replaced")
                #expect(rig.entries("pairing").count == 1)
            }
        }
    }
}

extension SamsungDriverCertificateRecoveryTests {
    @Test(
        "provesIdentity: only an address presenting the pinned certificate proves a pinned TV; an unpinned one has nothing to prove"
    )
    func provesIdentity() async throws {
        try await withSamsungRig { rig in
            let paired = try await pairedToken(rig)
            // Another Samsung (its own certificate) on another address, same TLS port.
            let other = try await SamsungSimulator.start(
                SamsungSimulatorOptions(
                    host: "127.0.0.4", portWS: 0, portWSS: rig.simulator.portWSS, portUPnP: 0),
                log: CommandLog.memory())
            let pinned = rig.driver(token: paired.token, pin: paired.pin)
            #expect(await pinned.provesIdentity(at: rig.simulator.host))
            #expect(await !pinned.provesIdentity(at: "127.0.0.4"), "another certificate")
            #expect(await !pinned.provesIdentity(at: "127.0.0.5"), "nothing answers: fails closed")
            await pinned.shutdown()
            let unpinned = rig.driver()
            #expect(await unpinned.provesIdentity(at: "127.0.0.4"))
            await unpinned.shutdown()
            await other.stop()
        }
    }
}
