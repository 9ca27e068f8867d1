import Drivers
import Harness
import TVModel

/// `driver-latency`: the keypress sent by our driver alone (no MQTT, no bridge), timed from the
/// call until the TV's answer, against the Python client Home Assistant uses on the same
/// simulator (python-rokuecp; samsungtvws once the Samsung simulator exists).
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
        let samsungNote = "Samsung simulator and driver not built yet"
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
            Measurement("samsung_key_p50_ms", nil, unit: "ms", note: samsungNote),
            Measurement("python_samsungtvws_key_p50_ms", nil, unit: "ms", note: samsungNote),
            Measurement("samsung_key_speedup_vs_python_samsungtvws", nil, unit: "×", note: samsungNote),
        ]
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
            if index >= Self.warmUp { samples.append((clock.now - started).milliseconds) }
        }
        guard let median = Statistics.percentile(samples, 50) else { throw BenchError("no keypress measured") }
        return median
    }
}
