import Harness

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
                note: "\(count) keypresses, kept-alive connection, tvbench driver-client (a process of its own)"),
            Measurement(
                "python_rokuecp_keypress_p50_ms", try? python.get(), unit: "ms", target: .info(),
                note: pythonNote ?? "same simulator, same count, aiohttp session kept"),
            Measurement(
                "ecp_keypress_speedup_vs_python_rokuecp", speedup, unit: "×", target: .atLeast(4),
                note: pythonNote.map { _ in "python-rokuecp not available" }),
            Measurement(
                "samsung_key_p50_ms", samsung, unit: "ms", target: .info("faster than samsungtvws"),
                note: "\(count) keys over the paired TLS channel, send until the TV logs it, tvbench driver-client"),
            Measurement(
                "python_samsungtvws_key_p50_ms", try? samsungPython.get(), unit: "ms", target: .info(),
                note: samsungPythonNote ?? "same simulator and count, SamsungTVWSAsyncRemote, key_press_delay 0"),
            Measurement(
                "samsung_key_speedup_vs_python_samsungtvws", samsungSpeedup, unit: "×", target: .atLeast(2.5),
                note: samsungPythonNote.map { _ in "samsungtvws not available" }),
        ]
    }

    /// Median milliseconds from calling `SamsungDriver.perform` until the simulator logs the key,
    /// timed by `tvbench driver-client samsung` in a process of its own, as samsungtvws is: the
    /// same pacing (3 ms after each key), the same warm-up (which opens the TLS channel and
    /// pairs; the simulator approves at once), the same pairing of send and receipt stamps.
    private func measureSamsungDriver(_ tv: SamsungBenchTV, count: Int) async throws -> Double {
        let result = try await ChildProcess.run(
            try Products.path("tvbench"),
            ["driver-client", "samsung", tv.host, String(tv.port), String(count), String(Self.warmUp)],
            timeout: .seconds(120))
        guard result.status.isSuccess else { throw BenchError("our Samsung driver: \(Self.tail(result))") }
        return try PythonSamsungTVWS.median(tv, output: result.output).get()
    }

    /// Median milliseconds of `count` keypresses through `RokuDriver.perform`, timed by
    /// `tvbench driver-client roku` in a process of its own, as python-rokuecp is.
    private func measureRokuDriver(_ tv: any BenchTV, count: Int) async throws -> Double {
        let result = try await ChildProcess.run(
            try Products.path("tvbench"),
            ["driver-client", "roku", tv.host, String(tv.port), String(count), String(Self.warmUp)],
            timeout: .seconds(120))
        guard result.status.isSuccess, let median = PythonRokuECP.median(in: result.output) else {
            throw BenchError("our Roku driver: \(Self.tail(result))")
        }
        return median
    }

    static func tail(_ result: CommandResult) -> String {
        result.error.split(separator: "\n").suffix(2).joined(separator: " ")
    }
}
