import Harness

/// The LG part of `driver-latency`: our driver's key (`tvbench driver-client lg`) beside
/// aiowebostv's `button` and the raw-socket floor, on one simulated LG (`LGBenchTV`, TLS on
/// 3001), all timed send until the simulator logs the `button`. The target is on what each
/// client adds above the floor: aiowebostv's overhead at least 2.5× ours.
extension DriverLatency {
    static let lgMetrics: [(name: String, unit: String)] = [
        ("lg_key_p50_ms", "ms"), ("python_aiowebostv_key_p50_ms", "ms"),
        ("lg_key_speedup_vs_python_aiowebostv", "×"), ("lg_key_floor_ms", "ms"),
        ("lg_key_overhead_ratio_vs_python_aiowebostv", "×"),
    ]

    func measureLG(count: Int) async throws -> [Measurement] {
        let tv = try await LGBenchTV.start(host: BenchAddresses.driverLG)
        let ours = await driverClientSamples("lg", tv, count: count)
        let python = await PythonAIOWebOSTV.keySamples(tv, count: count, warmUp: Self.warmUp)
        let floor = await RawSocketFloor.lgSamples(tv, count: count, warmUp: Self.warmUp)
        await tv.stop()
        let plot = PlotSamples.shared
        plot.addLatency(group: LatencyGroup.lgClient, label: "tv2mqtt driver", samples: (try? ours.get()) ?? [])
        plot.addLatency(group: LatencyGroup.lgClient, label: "aiowebostv", samples: (try? python.get()) ?? [])
        plot.addLatency(
            group: LatencyGroup.lgClient, label: "raw socket (the floor)", samples: (try? floor.get()) ?? [])
        func median(_ samples: [Double]) -> Result<Double, BenchError> {
            Statistics.percentile(samples, 50).map { .success($0) } ?? .failure(BenchError("no sample"))
        }
        let (oursMedian, pythonMedian) = (ours.flatMap(median), python.flatMap(median))
        var speedup: Double?
        if let mine = try? oursMedian.get(), let theirs = try? pythonMedian.get() { speedup = theirs / mine }
        let oursNote: String? = {
            if case .failure(let why) = oursMedian { return "tvbench driver-client lg: \(why.description)" }
            return nil
        }()
        let pythonNote: String? = {
            if case .failure(let why) = pythonMedian { return "aiowebostv: \(why.description)" }
            return nil
        }()
        var measurements = [
            Measurement(
                "lg_key_p50_ms", try? oursMedian.get(), unit: "ms", target: .info("faster than aiowebostv"),
                note: oursNote ?? "\(count) keys over the pointer socket (TLS), send until the TV logs it"),
            Measurement(
                "python_aiowebostv_key_p50_ms", try? pythonMedian.get(), unit: "ms", target: .info(),
                note: pythonNote ?? "same simulator and count, WebOsClient.button over wss on 3001"),
            Measurement(
                "lg_key_speedup_vs_python_aiowebostv", speedup, unit: "×", target: .info(),
                note: speedup == nil ? "not measured (see the rows above)" : nil),
        ]
        if let mine = try? oursMedian.get() {
            measurements += Self.floorMeasurements(
                "lg_key", ours: mine, python: pythonMedian, floor: floor.flatMap(median),
                reference: "python_aiowebostv", ratioTarget: Targets.lgKeyOverheadRatio)
        } else {
            measurements += [
                Measurement("lg_key_floor_ms", try? floor.flatMap(median).get(), unit: "ms", target: .info()),
                Measurement(
                    "lg_key_overhead_ratio_vs_python_aiowebostv", nil, unit: "×", target: Targets.lgKeyOverheadRatio,
                    note: "needs our driver's figure"),
            ]
        }
        return measurements
    }

    /// Our driver's keys, stamped by `tvbench driver-client VENDOR HOST PORT COUNT WARMUP` in a
    /// process of its own (`START`/`SENT` lines, as the Python scripts print).
    func driverClientSamples(_ vendor: String, _ tv: some KeyLoggingBenchTV, count: Int) async -> Result<
        [Double], BenchError
    > {
        do {
            let result = try await ChildProcess.run(
                try Products.path("tvbench"),
                ["driver-client", vendor, tv.host, String(tv.port), String(count), String(Self.warmUp)],
                timeout: .seconds(120))
            guard result.status.isSuccess else { return .failure(BenchError(Self.tail(result))) }
            return PythonSamsungTVWS.samples(tv, output: result.output)
        } catch {
            return .failure(BenchError("\(error)"))
        }
    }
}
