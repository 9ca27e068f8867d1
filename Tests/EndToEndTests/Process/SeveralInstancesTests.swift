import Glibc
import Harness
import TVSimulators
import TestSupport
import Testing
import Wire

/// Three `tv2mqtt run` processes on one mosquitto, each with its own client id, base topic
/// and TVs (deploy/README.md › Several instances), the base topics nested (`tv2mqtt`, `tv2mqtt/floor2`,
/// `tv2mqtt/floor2/east`): restarting one must leave the others' retained messages alone
/// (deploy/README.md › Several instances), and Home Assistant must see every TV exactly once.
@Suite("Several instances on one broker", .serialized)
struct SeveralInstancesTests {
    /// One instance: its base topic, client id, and the loopback addresses of its TVs.
    struct Instance {
        var base: String
        var clientID: String
        var hosts: [String]
        /// `tv2mqtt_bridge_<base topic reduced>` (DiscoverySettings.bridgeID).
        var bridgeNode: String {
            "tv2mqtt_bridge_" + base.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
        }
    }

    static let instances = [
        Instance(base: "tv2mqtt", clientID: "tv2mqtt", hosts: ["127.0.0.61", "127.0.0.62"]),
        Instance(base: "tv2mqtt/floor2", clientID: "tv2mqtt-floor2", hosts: ["127.0.0.63", "127.0.0.64"]),
        Instance(base: "tv2mqtt/floor2/east", clientID: "tv2mqtt-east", hosts: ["127.0.0.65", "127.0.0.66"]),
    ]

    @Test("restarting any of three nested instances leaves the others' retained messages alone; each TV once in HA")
    func restartsLeaveOthersAlone() async throws {
        await afterStartupBurst()
        try await withMosquitto { broker in
            let log = CommandLog.memory()
            var tvs: [String: RokuSimulator] = [:]
            var bridges: [ChildProcess?] = Array(repeating: nil, count: Self.instances.count)
            let states = try Self.instances.map { _ in try TemporaryDirectory(prefix: "instances") }
            defer { for state in states { state.remove() } }
            let watcher = try await MosquittoClients.startSubscriber(to: broker.endpoint(), topics: ["#"])
            do {
                for host in Self.instances.flatMap(\.hosts) {
                    var options = RokuSimulatorOptions()
                    options.host = host
                    options.port = 0
                    tvs[host] = try await RokuSimulator.start(options, log: log)
                }
                try await watcher.waitUntilSubscribed(on: broker)
                let run = Run(broker: broker, tvs: tvs, states: states.map(\.path), watcher: watcher)
                for index in Self.instances.indices {
                    let mark = watcher.lines().count
                    bridges[index] = try await run.start(index)
                    try await run.expectSettled(index, after: mark)
                }
                let baseline = try await MosquittoClients.retained(on: broker.endpoint())
                try run.expectComplete(baseline)
                for index in Self.instances.indices {
                    let mark = watcher.lines().count
                    let status = await bridges[index]?.terminate(grace: .seconds(10))
                    #expect(status == .exited(0), "\(Self.instances[index].base) did not stop cleanly")
                    bridges[index] = try await run.start(index)
                    try await run.expectSettled(index, after: mark)
                    let now = try await MosquittoClients.retained(on: broker.endpoint())
                    try run.expectComplete(now)
                    run.expectUntouched(now, baseline, restarted: index, after: mark)
                }
            } catch {
                for bridge in bridges { if let bridge { print("\(bridge.commandLine):\n\(bridge.capturedError())") } }
                await Self.stop(bridges, tvs, watcher)
                throw error
            }
            await Self.stop(bridges, tvs, watcher)
        }
    }

    static func stop(_ bridges: [ChildProcess?], _ tvs: [String: RokuSimulator], _ watcher: MosquittoSubscriber) async {
        for bridge in bridges { if let bridge { _ = await bridge.terminate(grace: .seconds(5)) } }
        for tv in tvs.values { await tv.stop() }
        await watcher.stop()
    }

    /// The running test's broker, TVs and state directories.
    struct Run {
        let broker: MosquittoBroker
        let tvs: [String: RokuSimulator]
        let states: [String]
        let watcher: MosquittoSubscriber

        func ids(_ index: Int) -> [String] {
            SeveralInstancesTests.instances[index].hosts.map { "roku_" + tvs[$0]!.serial.lowercased() }
        }

        func start(_ index: Int) async throws -> ChildProcess {
            let instance = SeveralInstancesTests.instances[index]
            var arguments = [
                "--mqtt-server", broker.url, "--mqtt-client-id", instance.clientID, "--base-topic", instance.base,
                "--no-ssdp", "--no-mdns", "--state-dir", states[index], "--wol-target", "127.0.0.1:9",
            ]
            for host in instance.hosts { arguments += ["--tv", "roku:\(host):\(tvs[host]!.port)"] }
            return try await FaultBridgeProcess.start(arguments)
        }

        /// Waits until instance `index`, started after line `mark`, has swept the retained
        /// configs and published everything again: after the sweep come its TV list, the
        /// discovery configs, then availability and state, in that order on one connection.
        func expectSettled(_ index: Int, after mark: Int) async throws {
            let base = SeveralInstancesTests.instances[index].base
            let expected = ["\(base)/bridge/tvs"] + owned(index).filter { !$0.hasSuffix("/bridge/state") }
            var missing = expected
            let settled = await waitUntil(timeout: .seconds(30)) {
                let topics = Set(watcher.lines().dropFirst(mark).map { String($0.prefix { $0 != " " }) })
                missing = expected.filter { !topics.contains($0) }
                return missing.isEmpty
            }
            try #require(settled, "\(base) did not publish \(missing) again")
        }

        /// The retained messages every instance holds: bridge state, its TVs' availability and
        /// state, and the discovery configs of its bridge and TVs.
        func owned(_ index: Int) -> [String] {
            let instance = SeveralInstancesTests.instances[index]
            var topics = [
                "\(instance.base)/bridge/state", "homeassistant/device/\(instance.bridgeNode)/config",
            ]
            for id in ids(index) {
                topics += ["\(instance.base)/\(id)/availability", "\(instance.base)/\(id)/state"]
                topics.append("homeassistant/device/\(id)/config")
            }
            return topics
        }

        /// Every instance's messages are there, and Home Assistant's view (the retained
        /// configs) has each TV's and each bridge's device exactly once.
        func expectComplete(_ retained: [String: String]) throws {
            for index in SeveralInstancesTests.instances.indices {
                let missing = owned(index).filter { retained[$0] == nil }
                #expect(missing.isEmpty, "\(SeveralInstancesTests.instances[index].base): missing \(missing)")
            }
            var devices: [String: Int] = [:]
            for (topic, payload) in retained where topic.hasPrefix("homeassistant/") && topic.hasSuffix("/config") {
                let config = try JSONParser.parse(payload)
                for identifier in config["device"]?["identifiers"]?.arrayValue ?? [] {
                    devices[identifier.stringValue ?? "?", default: 0] += 1
                }
            }
            var expected = Set(SeveralInstancesTests.instances.map(\.bridgeNode))
            for index in SeveralInstancesTests.instances.indices {
                expected.formUnion(ids(index).map { "tv2mqtt_" + $0 })
            }
            let wrong = Set(devices.keys).symmetricDifference(expected).sorted()
            #expect(wrong.isEmpty, "devices missing from Home Assistant's view, or unknown")
            let repeated = devices.filter { $0.value != 1 }.keys.sorted()
            #expect(repeated.isEmpty, "devices announced more than once")
        }

        /// The instances other than `restarted` hold what they held before, and nothing was
        /// published on their discovery topics nor any of their messages cleared since `mark`.
        func expectUntouched(_ now: [String: String], _ baseline: [String: String], restarted: Int, after mark: Int) {
            let restartedBase = SeveralInstancesTests.instances[restarted].base
            for index in SeveralInstancesTests.instances.indices where index != restarted {
                let base = SeveralInstancesTests.instances[index].base
                for topic in owned(index) {
                    let same = Self.withoutTimestamp(now[topic]) == Self.withoutTimestamp(baseline[topic])
                    #expect(same, "restarting \(restartedBase) changed \(topic) (now \(now[topic]?.count ?? 0) bytes)")
                }
                // mosquitto_sub -v prints an empty payload (a cleared retained message) as `(null)`.
                let touched = watcher.lines().dropFirst(mark).filter { line in
                    owned(index).contains { topic in
                        line == topic + " (null)" || (topic.hasPrefix("homeassistant/") && line.hasPrefix(topic + " "))
                    }
                }
                let topics = touched.map { $0.prefix { $0 != " " } + ($0.hasSuffix(" (null)") ? " (cleared)" : "") }
                #expect(touched.isEmpty, "restarting \(restartedBase) published on \(base)'s topics: \(topics)")
            }
        }

        /// A state document without `last_seen`, which moves with every poll.
        static func withoutTimestamp(_ payload: String?) -> JSONValue? {
            guard let payload, var object = (try? JSONParser.parse(payload))?.objectValue else {
                return payload.map(JSONValue.string)
            }
            object["last_seen"] = nil
            return .object(object)
        }
    }
}
