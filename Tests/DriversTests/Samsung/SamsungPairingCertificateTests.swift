import Drivers
import Support
import Testing

/// Pairing again accepts the certificate the TV presents then (`tv2mqtt pair`, `tv/pair`): a
/// different one is a certificate change, and is logged as one.
@Suite("Samsung pairing: a new certificate")
struct SamsungPairingCertificateTests {
    @Test("tv/pair accepting a new certificate logs it as a certificate change: a warning naming the TV")
    func pairingReplacesCertificate() async throws {
        try await withSamsungRig { rig in
            try await withDriver(rig.driver()) { driver, events in
                try await driver.pair()
                #expect(events.pins.count == 1)
                #expect(!rig.logs.all.contains { $0.message.contains("accepted a new TLS certificate") })
                try await rig.simulator.replaceCertificate()
                try await driver.pair()
                await events.settle { $0.filter { if case .certificatePinned = $0 { true } else { false } }.count == 2 }
                let warning = rig.logs.all.filter { $0.message.contains("accepted a new TLS certificate") }
                #expect(warning.count == 1)
                #expect(warning.first?.level == .warning)
                #expect(warning.first?.message.contains(rig.simulator.host) == true)
                #expect(warning.first?.metadata.contains { $0.0 == "tv" } == true)
                // Pairing again with the same certificate is no change.
                try await driver.pair()
                #expect(rig.logs.all.filter { $0.message.contains("accepted a new TLS certificate") }.count == 1)
            }
        }
    }
}
