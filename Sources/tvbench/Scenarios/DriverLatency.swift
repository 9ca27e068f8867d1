import Drivers
import Harness
import Support
import TVModel

/// `driver-latency`: the keypress sent by our driver alone (no MQTT, no bridge), timed from the
/// call until the TV's answer, against the Python client Home Assistant uses on the same
/// simulator (python-rokuecp; samsungtvws). A Roku keypress is timed until the TV's HTTP answer;
/// a Samsung key has no answer, so both clients' keys are timed until the simulator logs them
/// (see `PythonSamsungTVWS`).
struct DriverLatency: Scenario {
    static let name = "driver-latency"
    static let warmUp = 20

    var metrics: [(name: String, unit: String)] {
        [
            ("ecp_keypress_p50_ms", "ms"), ("python_rokuecp_keypress_p50_ms", "ms"),
            ("ecp_keypress_speedup_vs_python_rokuecp", "×"), ("samsung_key_p50_ms", "ms"),
            ("python_samsungtvws_key_p50_ms", "ms"), ("samsung_key_speedup_vs_python_samsungtvws", "×"),
        ]
    }

    func run(options: BenchOptions) async throws -> [Measurement] {
        let count = options.quick ? 100 : 1000
        let (ours, python) = try await withTVs(.rokuHTTP, hosts: [BenchAddresses.driverTV]) { tvs in
            let ours = try await measureRokuDriver(tvs[0], count: count)
            let python = await PythonRokuECP.keypressMedian(host: tvs[0].host, port: tvs[0].port, count: count)
            return (ours, python)
        }
        let (samsung, samsungPython) = try await withTVs(.samsung, hosts: [BenchAddresses.driverSamsung]) { tvs in
            let tv = tvs[0] as! SamsungBenchTV
            let ours = try await measureSamsungDriver(tv, count: count)
            let python = await PythonSamsungTVWS.keyMedian(tv, count: count, warmUp: Self.warmUp)
            return (ours, python)
        }
        var samsungSpeedup: Double?
        var samsungPythonNote: String?
        switch samsungPython {
        case .success(let median): samsungSpeedup = median / samsung
        case .failure(let why): samsungPythonNote = "samsungtvws: \(why.description)"
        }
        var speedup: Double?
        var pythonNote: String?
        switch python {
        case .success(let median): speedup = median / ours
        case .failure(let why): pythonNote = "python-rokuecp: \(why.description)"
        }
        return [
            Measurement(
                "ecp_keypress_p50_ms", ours, unit: "ms", target: .info("faster than python-rokuecp"),
                note: "\(count) keypresses, kept-alive connection"),
            Measurement(
                "python_rokuecp_keypress_p50_ms", try? python.get(), unit: "ms", target: .info(),
                note: pythonNote ?? "same simulator, same count, aiohttp session kept"),
            Measurement(
                "ecp_keypress_speedup_vs_python_rokuecp", speedup, unit: "×", target: .atLeast(1),
                note: pythonNote.map { _ in "python-rokuecp not available" }),
            Measurement(
                "samsung_key_p50_ms", samsung, unit: "ms", target: .info("faster than samsungtvws"),
                note: "\(count) keys over the paired TLS channel, send until the TV logs it"),
            Measurement(
                "python_samsungtvws_key_p50_ms", try? samsungPython.get(), unit: "ms", target: .info(),
                note: samsungPythonNote ?? "same simulator and count, SamsungTVWSAsyncRemote, key_press_delay 0"),
            Measurement(
                "samsung_key_speedup_vs_python_samsungtvws", samsungSpeedup, unit: "×", target: .atLeast(1),
                note: samsungPythonNote.map { _ in "samsungtvws not available" }),
        ]
    }

    /// Median milliseconds from calling `SamsungDriver.perform` until the simulator logs the key,
    /// with the same pacing as the samsungtvws script (3 ms after each key). The warm-up opens
    /// the TLS channel and pairs (the simulator approves at once).
    private func measureSamsungDriver(_ tv: SamsungBenchTV, count: Int) async throws -> Double {
        let settings = DriverSettings(wolTargets: [], logger: .disabled)
        let description = try await SamsungProbe.describe(host: tv.host, port: tv.port, settings: settings)
        let driver = SamsungDriver(description: description, settings: settings)
        let draining = Task { for await _ in driver.events {} }  // tokens and pins: not needed here
        defer {
            Task {
                await driver.shutdown()
                await draining.value
            }
        }
        for index in 0..<Self.warmUp {
            try await driver.perform(TVCommand.key(TVKey(tv.neutralKeys[index % 2]), repeat: 1))
            try await Task.sleep(for: .milliseconds(3))
        }
        try await Task.sleep(for: .milliseconds(200))
        let start = wallClockSeconds()
        var sent: [Double] = []
        for index in 0..<count {
            let stamp = wallClockSeconds()
            try await driver.perform(TVCommand.key(TVKey(tv.neutralKeys[index % 2]), repeat: 1))
            sent.append(stamp)
            try await Task.sleep(for: .milliseconds(3))
        }
        try await Task.sleep(for: .milliseconds(200))
        let received = tv.keyStamps(since: start)
        guard received.count == sent.count else {
            throw BenchError("our Samsung driver: \(sent.count) keys sent, \(received.count) received")
        }
        let samples = zip(sent, received).map { ($1 - $0) * 1000 }
        guard let median = Statistics.percentile(samples, 50) else { throw BenchError("no key measured") }
        return median
    }

    /// Median milliseconds of `count` keypresses through `RokuDriver.perform`.
    private func measureRokuDriver(_ tv: any BenchTV, count: Int) async throws -> Double {
        let settings = DriverSettings(wolTargets: [], logger: .disabled)
        let description = try await RokuProbe.describe(host: tv.host, port: tv.port, settings: settings)
        let driver = RokuDriver(description: description, settings: settings)
        defer { Task { await driver.shutdown() } }
        let clock = ContinuousClock()
        var samples: [Double] = []
        let deadline = clock.now + .seconds(60)
        for index in 0..<(Self.warmUp + count) where clock.now < deadline {
            let key = TVKey(tv.neutralKeys[index % tv.neutralKeys.count])
            let started = clock.now
            try await driver.perform(.key(key, repeat: 1))
            if index >= Self.warmUp { samples.append((clock.now - started).fractionalMilliseconds) }
        }
        guard let median = Statistics.percentile(samples, 50) else { throw BenchError("no keypress measured") }
        return median
    }
}
