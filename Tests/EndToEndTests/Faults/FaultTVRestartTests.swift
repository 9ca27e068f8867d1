import Glibc
import Harness
import TVSimulators
import TestSupport
import Testing

/// Simulated TVs go away and come back, again and again, while `tv2mqtt run` polls them
/// (issue 7, fault 2). The TVs run in the test process so their requests can be counted;
/// stopping one closes its listener and every connection, which is what the bridge sees of
/// a TV process killed with SIGKILL (the kernel closes its sockets the same way).
@Suite("Faults: TVs killed and restarted", .serialized)
struct FaultTVRestartTests {
    /// Addresses of their own with the standard ECP port: a TV restarted on an ephemeral port
    /// could find it taken by another test's socket in the meantime.
    static let hosts = ["127.0.0.41", "127.0.0.42", "127.0.0.43"]
    static let cycles = 3

    @Test("availability follows TVs that die and return; no descriptor, socket or polling task is left behind")
    func tvsComeAndGo() async throws {
        await afterStartupBurst()
        try await withMosquitto { broker in
            let state = try TemporaryDirectory(prefix: "fault-tvs")
            defer { state.remove() }
            let log = CommandLog.memory()
            var tvs: [RokuSimulator] = []
            for host in Self.hosts { tvs.append(try await Self.startTV(host, port: 8060, log: log)) }
            let ports = tvs.map(\.port)
            let ids = tvs.map { "roku_" + $0.serial.lowercased() }
            let subscriber = try await MosquittoClients.startSubscriber(
                to: broker.endpoint(), topics: ["tv2mqtt/+/availability"])
            var arguments = [
                "--mqtt-server", broker.url, "--no-ssdp", "--no-mdns", "--state-dir", state.path, "--poll-interval",
                "1",
                "--wol-target", "127.0.0.1:9",
            ]
            for tv in tvs { arguments += ["--tv", "roku:\(tv.host):\(tv.port)"] }
            var bridge: ChildProcess?
            do {
                try await subscriber.waitUntilSubscribed(on: broker)
                let process = try await FaultBridgeProcess.start(arguments)
                bridge = process
                try await Self.expectAvailability(subscriber, ids, "online", after: 0)
                try await Task.sleep(for: .milliseconds(500))  // first full polls and ECP-2 attempts done
                let before = await Self.observe(tvs, bridge: process.pid)
                for _ in 1...Self.cycles {
                    var mark = subscriber.lines().count
                    for tv in tvs { await tv.stop() }
                    try await Self.expectAvailability(subscriber, ids, "offline", after: mark)
                    mark = subscriber.lines().count
                    tvs = []
                    for (host, port) in zip(Self.hosts, ports) {
                        tvs.append(try await Self.startTV(host, port: port, log: log))
                    }
                    try await Self.expectAvailability(subscriber, ids, "online", after: mark)
                }
                try await Task.sleep(for: .milliseconds(500))
                let after = await Self.observe(tvs, bridge: process.pid)
                print(
                    "TV restarts: bridge descriptors \(before.descriptors) (sockets \(before.sockets)) before,"
                        + " \(after.descriptors) (sockets \(after.sockets)) after \(Self.cycles) cycles of \(tvs.count) TVs;"
                        + " threads \(before.threads) → \(after.threads);"
                        + " requests to the TVs in 2 s \(before.requests) → \(after.requests)")
                #expect(process.isRunning, "stderr: \(process.capturedError())")
                // A leaked connection per TV and cycle would add 9; allow one caught in flight.
                let descriptors = FaultBridgeProcess.descriptors(of: process.pid)
                #expect(after.descriptors <= before.descriptors + 1, "descriptors now: \(descriptors)")
                #expect(after.sockets <= before.sockets + 1)
                // Swift tasks cannot be counted from outside; a leaked poll loop would show as
                // requests: one more loop per TV and restart would make them four times as many.
                #expect(after.requests <= before.requests * 3 / 2 + 3)
            } catch {
                Self.report(bridge)
                await Self.stop(bridge, tvs, subscriber)
                throw error
            }
            await Self.stop(bridge, tvs, subscriber)
        }
    }

    static func startTV(_ host: String, port: UInt16, log: CommandLog) async throws -> RokuSimulator {
        var options = RokuSimulatorOptions()
        options.host = host
        options.port = port
        return try await RokuSimulator.start(options, log: log)
    }

    /// Waits until every TV in `ids` has said `payload` on its availability topic after line `after`.
    static func expectAvailability(_ subscriber: MosquittoSubscriber, _ ids: [String], _ payload: String, after: Int)
        async throws
    {
        let expected = Set(ids.map { "tv2mqtt/\($0)/availability \(payload)" })
        let seen = await waitUntil(timeout: .seconds(30)) {
            expected.isSubset(of: Set(subscriber.lines().dropFirst(after)))
        }
        try #require(seen, "not all \(payload): \(subscriber.lines().dropFirst(after))")
    }

    /// Over two seconds: the HTTP requests the TVs answered, and the fewest descriptors and
    /// sockets the bridge held (see `settledDescriptorCount`), and its threads.
    static func observe(_ tvs: [RokuSimulator], bridge pid: pid_t) async
        -> (requests: Int, descriptors: Int, sockets: Int, threads: Int)
    {
        let start = tvs.map(\.httpRequestCount).reduce(0, +)
        let held = await FaultBridgeProcess.settledDescriptorCount(of: pid, samples: 20, interval: .milliseconds(100))
        let requests = tvs.map(\.httpRequestCount).reduce(0, +) - start
        return (requests, held.all, held.sockets, FaultBridgeProcess.threads(of: pid) ?? 0)
    }

    static func report(_ bridge: ChildProcess?) {
        if let bridge { print("tv2mqtt stderr:\n\(bridge.capturedError())") }
    }

    static func stop(_ bridge: ChildProcess?, _ tvs: [RokuSimulator], _ subscriber: MosquittoSubscriber) async {
        if let bridge { await bridge.terminate(grace: .seconds(5)) }
        for tv in tvs { await tv.stop() }
        await subscriber.stop()
    }
}
