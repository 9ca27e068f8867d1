import Clients
import Net
import TVSimulators
import Testing
import Wire

/// The remote-control WebSocket: pairing over wss, plain ws, keys and their effects.
@Suite struct SamsungRemoteTests {
    @Test func acceptIssuesANumericTokenAndReconnectsSilently() async throws {
        try await withSamsung { (sim, _, log) async throws in
            let first = try await RemoteChannel.open(sim, name: "tv2mqtt test")
            #expect(first.fingerprint == sim.certificateSHA256)
            #expect(sim.certificateSHA256.count == 32)
            let connect = try #require(await first.event("ms.channel.connect"))
            guard case .integer(let number)? = connect["data"]?["token"] else {
                Issue.record("token is not a JSON number: \(connect)")
                return
            }
            let token = String(number)
            #expect(sim.issuedTokens == [token])
            // Startup noise arrives too; a client must ignore it.
            #expect(await first.event("ed.edenTV.update") != nil)
            #expect(await first.event("ms.channel.ready") != nil)
            let pairing = await log.waitFor(timeout: .seconds(30)) { $0["kind"] == "pairing" }
            #expect(pairing?["result"] == "accepted")
            #expect(pairing?["client"] == "tv2mqtt test")
            await first.close()

            let again = try await RemoteChannel.open(sim, name: "tv2mqtt test", token: token)
            let reconnect = try #require(await again.event("ms.channel.connect"))
            #expect(reconnect["data"]?["token"] == .integer(number))
            #expect(sim.issuedTokens == [token])
            let pairings = log.entries.filter { $0["kind"] == "pairing" }
            #expect(pairings.count == 1)
            await again.close()

            // The token is bound to the name: another name meets the prompt again.
            let other = try await RemoteChannel.open(sim, name: "someone else", token: token)
            #expect(await other.event("ms.channel.connect") != nil)
            #expect(sim.issuedTokens.count == 2)
            await other.close()
        }
    }

    @Test func plainPortConnectsWithoutAToken() async throws {
        try await withSamsung(samsungOptions(pairing: .deny)) { (sim, _, log) async throws in
            let channel = try await RemoteChannel.open(sim, secure: false)
            #expect(channel.fingerprint == nil)
            let connect = try #require(await channel.event("ms.channel.connect"))
            #expect(connect["data"]?["token"] == nil)
            try await channel.key("KEY_HOME")
            let key = await log.waitFor(timeout: .seconds(30)) { $0["kind"] == "remote_key" }
            #expect(key?["key"] == "KEY_HOME")
            #expect(key?["cmd"] == "Click")
            #expect(sim.issuedTokens.isEmpty)
            await channel.close()
        }
    }

    @Test func volumeMuteAndSourceKeys() async throws {
        try await withSamsung { (sim, _, log) async throws in
            let channel = try await RemoteChannel.open(sim)
            #expect(await channel.event("ms.channel.connect") != nil)
            let before = sim.state.volume
            try await channel.key("KEY_VOLUP")
            try await channel.key("KEY_VOLUP")
            try await channel.key("KEY_VOLDOWN")
            try await channel.key("KEY_MUTE")
            try await channel.key("KEY_HDMI2")
            try await channel.key("KEY_FACTORY")
            let last = await log.waitFor(timeout: .seconds(30)) { $0["key"] == "KEY_FACTORY" }
            #expect(last?["kind"] == "remote_key")
            #expect(sim.state.volume == before + 1)
            #expect(sim.state.muted)
            #expect(sim.state.source == "HDMI2")
            let keys = log.entries.filter { $0["kind"] == "remote_key" }.compactMap { $0["key"]?.stringValue }
            #expect(keys == ["KEY_VOLUP", "KEY_VOLUP", "KEY_VOLDOWN", "KEY_MUTE", "KEY_HDMI2", "KEY_FACTORY"])
            await channel.close()
        }
    }

    @Test func powerKeyTogglesStandbyAndBack() async throws {
        try await withSamsung { (sim, client, log) async throws in
            let channel = try await RemoteChannel.open(sim)
            #expect(await channel.event("ms.channel.connect") != nil)
            try await channel.key("KEY_POWER")
            let first = await log.waitFor(timeout: .seconds(30)) { $0["key"] == "KEY_POWER" }
            #expect(first != nil)
            #expect(sim.state.power == .standby)
            let info = try JSONParser.parse(try await client.get("/api/v2/").body)
            #expect(info["device"]?["PowerState"] == "standby")
            // In standby volume keys do nothing; the channel stays up; KEY_POWER turns it on.
            let volume = sim.state.volume
            try await channel.key("KEY_VOLUP")
            try await channel.key("KEY_POWER")
            let woke = await eventually { sim.state.power == .on }
            #expect(woke)
            #expect(sim.state.volume == volume)
            await channel.close()
        }
    }
}
