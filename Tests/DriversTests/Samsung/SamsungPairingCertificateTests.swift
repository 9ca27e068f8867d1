import Drivers
import Net
import Support
import Testing

/// Pairing again accepts the certificate the TV presents then (`tv2mqtt pair`, `tv/pair`): a
/// different one is a certificate change, and is logged as one.
@Suite("Samsung pairing: a new certificate")
struct SamsungPairingCertificateTests {
    @Test("tv/pair accepting a new certificate logs it as a certificate change: a warning naming the TV")
    func pairingReplacesCertificate() async throws {
        try await withSamsungRig { rig in
            // The driver on a clock that never moves (the simulator approves in real time): the
            // approval timeout cannot pass however long a busy core holds the prompt's answer.
            try await ManualClock().run {
                try await withDriver(rig.driver()) { driver, events in
                    try await driver.pair()
                    #expect(events.pins.count == 1)
                    #expect(Self.changes(rig).isEmpty)
                    try await rig.simulator.replaceCertificate()
                    try await driver.pair()
                    await events.settle {
                        $0.filter { if case .certificatePinned = $0 { true } else { false } }.count == 2
                    }
                    let warning = Self.changes(rig)
                    #expect(warning.count == 1)
                    #expect(warning.first?.level == .warning)
                    #expect(warning.first?.message.contains(rig.simulator.host) == true)
                    let names = warning.first?.metadata.map(\.0) ?? []
                    #expect(names.contains("tv"))
                    // Pairing again with the same certificate is no change.
                    try await driver.pair()
                    #expect(Self.changes(rig).count == 1)
                }
            }
        }
    }

    /// The log lines saying a pairing accepted a new certificate.
    static func changes(_ rig: SamsungRig) -> [LogRecord] {
        rig.logs.all.filter { $0.message.contains("accepted a new TLS certificate") }
    }
}
