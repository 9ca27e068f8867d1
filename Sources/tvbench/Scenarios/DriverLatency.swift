import Harness

/// `driver-latency`: the keypress sent by our driver alone (no MQTT, no bridge), timed from the
/// call until the TV's answer, against the Python client Home Assistant uses on the same
/// simulator (python-rokuecp; samsungtvws; aiowebostv, `DriverLatency+LG.swift`; androidtvremote2,
/// `DriverLatency+AndroidTV.swift`). A Roku keypress is timed until the TV's HTTP answer;
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
            ("ecp_keypress_floor_ms", "ms"), ("ecp_keypress_overhead_ratio_vs_python_rokuecp", "×"),
            ("samsung_key_floor_ms", "ms"), ("samsung_key_overhead_ratio_vs_python_samsungtvws", "×"),
        ] + Self.lgMetrics + Self.androidTVMetrics
    }

    func run(options: BenchOptions) async throws -> [Measurement] {
        let count = options.quick ? 100 : 1000
        let (ours, python, floor) = try await withTVs(.rokuHTTP, hosts: [BenchAddresses.driverTV]) { tvs in
            let ours = try await measureRokuDriver(tvs[0], count: count)
            let python = await PythonRokuECP.keypressSamples(host: tvs[0].host, port: tvs[0].port, count: count)
            let floor = await RawSocketFloor.rokuSamples(
                host: tvs[0].host, port: tvs[0].port, count: count, warmUp: Self.warmUp)
            return Self.medians(
                LatencyGroup.rokuClient, ours, (python, "python-rokuecp"), (floor, "raw socket (the floor)"))
        }
        let (samsung, samsungPython, samsungFloor) = try await withTVs(.samsung, hosts: [BenchAddresses.driverSamsung])
        { tvs in
            let tv = tvs[0] as! SamsungBenchTV
            let ours = try await measureSamsungDriver(tv, count: count)
            let python = await PythonSamsungTVWS.keySamples(tv, count: count, warmUp: Self.warmUp)
            let floor = await RawSocketFloor.samsungSamples(tv, count: count, warmUp: Self.warmUp)
            return Self.medians(
                LatencyGroup.samsungClient, ours, (python, "samsungtvws"), (floor, "raw socket (the floor)"))
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
                "ecp_keypress_speedup_vs_python_rokuecp", speedup, unit: "×", target: Targets.ecpKeypressSpeedup,
                note: pythonNote.map { _ in "python-rokuecp not available" }),
            Measurement(
                "samsung_key_p50_ms", samsung, unit: "ms", target: .info("faster than samsungtvws"),
                note: "\(count) keys over the paired TLS channel, send until the TV logs it, tvbench driver-client"),
            Measurement(
                "python_samsungtvws_key_p50_ms", try? samsungPython.get(), unit: "ms", target: .info(),
                note: samsungPythonNote ?? "same simulator and count, SamsungTVWSAsyncRemote, key_press_delay 0"),
            Measurement(
                "samsung_key_speedup_vs_python_samsungtvws", samsungSpeedup, unit: "×",
                target: Targets.samsungKeySpeedup,
                note: samsungPythonNote.map { _ in "samsungtvws not available" }),
        ]
            + Self.floorMeasurements(
                "ecp_keypress", ours: ours, python: python, floor: floor, reference: "python_rokuecp")
            + Self.floorMeasurements(
                "samsung_key", ours: samsung, python: samsungPython, floor: samsungFloor,
                reference: "python_samsungtvws")
            + (try await measureLG(count: count))
            + (try await measureAndroidTV(count: count))
    }

    /// Each client's median, with every sample kept for `--svg` under `group`.
    static func medians(
        _ group: String, _ ours: [Double], _ python: (Result<[Double], BenchError>, String),
        _ floor: (Result<[Double], BenchError>, String)
    ) -> (Double, Result<Double, BenchError>, Result<Double, BenchError>) {
        let plot = PlotSamples.shared
        plot.addLatency(group: group, label: "tv2mqtt driver", samples: ours)
        plot.addLatency(group: group, label: python.1, samples: (try? python.0.get()) ?? [])
        plot.addLatency(group: group, label: floor.1, samples: (try? floor.0.get()) ?? [])
        func median(_ samples: [Double]) -> Result<Double, BenchError> {
            Statistics.percentile(samples, 50).map { .success($0) } ?? .failure(BenchError("no sample"))
        }
        return (Statistics.percentile(ours, 50) ?? .nan, python.0.flatMap(median), floor.0.flatMap(median))
    }

    /// The raw-socket floor (`RawSocketFloor`) and how much more time the reference client adds
    /// above it than ours does: (reference − floor) / (ours − floor). The speedup divides totals
    /// that both carry the floor, which no client can shrink, so it cannot exceed
    /// reference / floor however little a client adds; this ratio compares what the clients add.
    /// The stamps' resolution, in ms: an overhead smaller than this is not told from none.
    static let timingResolution = 0.001

    static func floorMeasurements(
        _ prefix: String, ours: Double, python: Result<Double, BenchError>, floor: Result<Double, BenchError>,
        reference: String, ratioTarget: Target = .info()
    ) -> [Measurement] {
        let floorValue = try? floor.get()
        var ratio: Double?
        var atFloor = false
        if let floorValue, let python = try? python.get(), python > floorValue {
            // At or under the floor, ours adds nothing measurable: it counts as one timing step.
            atFloor = ours - floorValue < Self.timingResolution
            ratio = (python - floorValue) / max(ours - floorValue, Self.timingResolution)
        }
        var ceiling = ""
        if let floorValue, let python = try? python.get() {
            ceiling = "; the speedup can be at most \(Report.format(python / floorValue))× over it"
        }
        let floorNote: String
        switch floor {
        case .success: floorNote = "python3 stdlib, blocking socket, request bytes built beforehand\(ceiling)"
        case .failure(let why): floorNote = why.description
        }
        return [
            Measurement("\(prefix)_floor_ms", floorValue, unit: "ms", target: .info(), note: floorNote),
            Measurement(
                "\(prefix)_overhead_ratio_vs_\(reference)", ratio, unit: "×", target: ratioTarget,
                note: ratio == nil
                    ? "not measured (or the reference at the floor)"
                    : atFloor
                        ? "ours at or under the floor: its overhead counted as \(Report.format(Self.timingResolution * 1000)) µs"
                        : "what each client adds above the floor"),
        ]
    }

    /// Milliseconds of each key from calling `SamsungDriver.perform` until the simulator logs the key,
    /// timed by `tvbench driver-client samsung` in a process of its own, as samsungtvws is: the
    /// same pacing (3 ms after each key), the same warm-up (which opens the TLS channel and
    /// pairs; the simulator approves at once), the same pairing of send and receipt stamps.
    private func measureSamsungDriver(_ tv: SamsungBenchTV, count: Int) async throws -> [Double] {
        let result = try await ChildProcess.run(
            try Products.path("tvbench"),
            ["driver-client", "samsung", tv.host, String(tv.port), String(count), String(Self.warmUp)],
            timeout: .seconds(120))
        guard result.status.isSuccess else { throw BenchError("our Samsung driver: \(Self.tail(result))") }
        return try PythonSamsungTVWS.samples(tv, output: result.output).get()
    }

    /// Milliseconds of each of `count` keypresses through `RokuDriver.perform`, timed by
    /// `tvbench driver-client roku` in a process of its own, as python-rokuecp is.
    private func measureRokuDriver(_ tv: any BenchTV, count: Int) async throws -> [Double] {
        let result = try await ChildProcess.run(
            try Products.path("tvbench"),
            ["driver-client", "roku", tv.host, String(tv.port), String(count), String(Self.warmUp)],
            timeout: .seconds(120))
        let samples = PythonRokuECP.samples(in: result.output)
        guard result.status.isSuccess, !samples.isEmpty else {
            throw BenchError("our Roku driver: \(Self.tail(result))")
        }
        return samples
    }

    static func tail(_ result: CommandResult) -> String {
        result.error.split(separator: "\n").suffix(2).joined(separator: " ")
    }
}
