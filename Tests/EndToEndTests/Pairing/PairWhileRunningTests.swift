import Glibc
import Harness
import TVSimulators
import TestSupport
import Testing
import Wire

/// `tv2mqtt pair` while `tv2mqtt run` uses the same state directory (issue 13, item 9): the
/// daemon's saves merge what `pair` wrote instead of writing back its older copy, and its
/// Samsung driver uses the new token from then on. Both orders: the daemon saves, then
/// `pair` saves; `pair` saves, then the daemon saves (a change, then its shutdown).
@Suite("tv2mqtt pair while the daemon runs", .serialized)
struct PairWhileRunningTests {
    let tv2mqtt = BuiltProducts.path("tv2mqtt")

    @Test("nothing is lost in either order, and the daemon uses the token pair saved")
    func pairWhileRunning() async throws {
        await afterStartupBurst()
        try await withMosquitto { broker in
            let commands = CommandLog.memory()
            let simulator = try await SamsungSimulator.start(
                SamsungSimulatorOptions(host: "127.0.0.8", portWS: 0, portWSS: 0, portUPnP: 0, pairing: .accept),
                log: commands)
            let directory = try TemporaryDirectory(prefix: "pair-running")
            defer { directory.remove() }
            let config = directory.file("config.json")
            try FileText.write(
                """
                {"tvs": [{"host": "127.0.0.8", "kind": "samsung", "port": \(simulator.portWS),
                          "port_wss": \(simulator.portWSS), "port_upnp": \(simulator.portUPnP)}]}
                """, to: config)
            let stateDir = directory.file("state")
            let statePath = stateDir + "/state.json"
            let subscriber = try await MosquittoClients.startSubscriber(
                to: broker.endpoint(), topics: ["tv2mqtt/+/availability"])
            var daemon: ChildProcess?
            do {
                try await subscriber.waitUntilSubscribed(on: broker)
                let process = try await FaultBridgeProcess.start(
                    [
                        "--config", config, "--mqtt-server", broker.url, "--no-ssdp", "--no-mdns", "--state-dir",
                        stateDir,
                        "--poll-interval", "1", "--wol-target", "127.0.0.1:9",
                    ], environment: ["TV2MQTT_TEST_STATE_SAVE_DELAY_MS": "0"])
                daemon = process
                let online = await waitUntil(timeout: .seconds(30)) {
                    subscriber.lines().contains { $0.hasSuffix("/availability online") }
                }
                try #require(online, "stderr: \(process.capturedError())")
                let onlineLine = subscriber.lines().first { $0.hasSuffix("/availability online") }
                let line = try #require(onlineLine)
                let id = String(line.dropFirst("tv2mqtt/".count).prefix { $0 != "/" })
                func rename(_ name: String) async throws {
                    try await MosquittoClients.publish(
                        to: broker.endpoint(), topic: "tv2mqtt/bridge/request/tv/rename",
                        message: #"{"id": "\#(id)", "name": "\#(name)"}"#, qos: 1)
                    let saved = await waitUntil(timeout: .seconds(30)) {
                        FileText.read(statePath)?.contains("\"\(name)\"") == true
                    }
                    #expect(saved, "the daemon did not save the rename; stderr: \(process.capturedError())")
                }

                // Order 1: the daemon saves, then pair saves.
                try await rename("Before Pairing")
                let paired = try await ChildProcess.run(
                    tv2mqtt, ["pair", "--config", config, "--state-dir", stateDir, "127.0.0.8"])
                #expect(paired.status == .exited(0), "stderr: \(paired.error)")
                let token = try #require(simulator.issuedTokens.first)
                let afterPair = FileText.read(statePath) ?? ""
                #expect(afterPair.contains(token) && afterPair.contains("\"Before Pairing\""), "\(afterPair)")

                // Order 2: pair has saved, then the daemon saves a change of its own.
                try await rename("After Pairing")
                let afterDaemon = FileText.read(statePath) ?? ""
                #expect(afterDaemon.contains(token), "the daemon's save wrote over the token pair saved")

                // The daemon's Samsung driver uses that token: the TV issues no second one.
                try await MosquittoClients.publish(
                    to: broker.endpoint(), topic: "tv2mqtt/\(id)/set/key", message: "home", qos: 1)
                let pressed = await commands.waitFor(timeout: .seconds(30)) {
                    $0["kind"]?.stringValue == "remote_key"
                }
                #expect(pressed != nil, "the key never reached the TV; stderr: \(process.capturedError())")
                #expect(simulator.issuedTokens == [token], "the daemon paired again instead of using pair's token")

                // Its shutdown save keeps it too.
                await process.terminate(grace: .seconds(10))
                daemon = nil
                let afterStop = FileText.read(statePath) ?? ""
                #expect(afterStop.contains(token) && afterStop.contains("\"After Pairing\""), "\(afterStop)")
            } catch {
                await daemon?.terminate(grace: .seconds(5))
                await simulator.stop()
                await subscriber.stop()
                throw error
            }
            await daemon?.terminate(grace: .seconds(5))
            await simulator.stop()
            await subscriber.stop()
        }
    }
}
