import Clients
import Net
import TVSimulators
import Testing
import Wire

/// What the "prompt" on the TLS port does in each pairing mode, and the certificate.
@Suite struct SamsungPairingTests {
    @Test func denyAnswersUnauthorizedAndCloses() async throws {
        try await withSamsung(samsungOptions(pairing: .deny)) { (sim, _, log) async throws in
            let channel = try await RemoteChannel.open(sim, name: "intruder")
            let refused = await channel.event("ms.channel.unauthorized")
            #expect(refused != nil)
            let closed = await channel.waitClosed()
            #expect(closed != nil)
            let connects = channel.received.filter { $0["event"] == "ms.channel.connect" }
            #expect(connects.isEmpty)
            let pairing = await log.waitFor(timeout: .seconds(30)) { $0["kind"] == "pairing" }
            #expect(pairing?["result"] == "denied")
            #expect(pairing?["client"] == "intruder")
            #expect(sim.issuedTokens.isEmpty)
        }
    }

    /// What happened, in order: the prompt's only answer is its timeout.
    @Test func ignoreSaysNothingThenTimesOut() async throws {
        var options = samsungOptions(pairing: .ignore)
        options.promptTimeout = .seconds(3)
        try await withSamsung(options) { (sim, _, log) async throws in
            let channel = try await RemoteChannel.open(sim)
            // Keys sent while the prompt is up are ignored, not logged.
            try await channel.key("KEY_HOME")
            let timedOut = await channel.event("ms.channel.timeOut")
            #expect(timedOut != nil)
            let answers = channel.received.compactMap { $0["event"]?.stringValue }.filter {
                ["ms.channel.connect", "ms.channel.unauthorized", "ms.channel.timeOut"].contains($0)
            }
            #expect(answers == ["ms.channel.timeOut"], "the prompt was answered before it timed out")
            #expect(await channel.waitClosed() != nil)
            let keys = log.entries.filter { $0["kind"] == "remote_key" }
            #expect(keys.isEmpty)
            let results = log.entries.filter { $0["kind"] == "pairing" }.map { $0["result"] }
            #expect(results.first == "prompt")

            let logged = await log.waitFor(timeout: .seconds(30)) { $0["result"] == "timeout" }
            #expect(logged != nil)
            #expect(sim.issuedTokens.isEmpty)
        }
    }

    @Test func tokenlessConnectsWithoutEverSendingAToken() async throws {
        try await withSamsung(samsungOptions(pairing: .tokenless)) { (sim, _, log) async throws in
            for _ in 0..<2 {
                let channel = try await RemoteChannel.open(sim)
                let connect = try #require(await channel.event("ms.channel.connect"))
                #expect(connect["data"]?["token"] == nil)
                let attributes = connect["data"]?["clients"]?.arrayValue?.first?["attributes"]
                #expect(attributes?["token"] == nil)
                await channel.close()
            }
            #expect(sim.issuedTokens.isEmpty)
            // Every connection "prompts" again: two approvals logged.
            let approvals = log.entries.filter { $0["kind"] == "pairing" && $0["result"] == "accepted" }
            #expect(approvals.count == 2)
        }
    }

    @Test func unknownTokenMeetsThePrompt() async throws {
        try await withSamsung(samsungOptions(pairing: .deny)) { (sim, _, _) async throws in
            let channel = try await RemoteChannel.open(sim, token: "11111111")
            #expect(await channel.event("ms.channel.unauthorized") != nil)
        }
    }

    @Test func replacedCertificateChangesTheFingerprintAndBreaksAPin() async throws {
        try await withSamsung { (sim, _, _) async throws in
            let old = sim.certificateSHA256
            let first = try await RemoteChannel.open(sim)
            #expect(first.fingerprint == old)
            await first.close()

            try await sim.replaceCertificate()
            #expect(sim.certificateSHA256 != old)
            let url = "wss://\(sim.host):\(sim.portWSS)/api/v2/channels/samsung.remote.control?name=dHYybXF0dA%3D%3D"
            await #expect(throws: WebSocketError.self) {
                _ = try await WebSocketClient.connect(
                    url: url, tls: TLSConfiguration(trust: .selfSigned(pinned: old)), connectTimeout: .seconds(30),
                    handshakeTimeout: .seconds(30))
            }
            let second = try await RemoteChannel.open(sim)
            #expect(second.fingerprint == sim.certificateSHA256)
            await second.close()
        }
    }
}
