import Harness

/// The Android TV part of `driver-latency`: our driver's key (`tvbench driver-client
/// androidtv`) beside androidtvremote2's `send_key_command` and the raw-socket floor, on one
/// simulated Android TV (`AndroidTVBenchTV`), all timed send until the simulator logs the key.
extension DriverLatency {
    static let androidTVMetrics: [(name: String, unit: String)] = [
        ("androidtv_key_p50_ms", "ms"), ("python_androidtvremote2_key_p50_ms", "ms"),
        ("androidtv_key_speedup_vs_python_androidtvremote2", "×"), ("androidtv_key_floor_ms", "ms"),
        ("androidtv_key_overhead_ratio_vs_python_androidtvremote2", "×"),
    ]

    func measureAndroidTV(count: Int) async throws -> [Measurement] {
        // One simulator per client: each pairs its own certificate, and a TV keeps one session.
        let ours = try await onAndroidTV { await driverClientSamples("androidtv", $0, count: count) }
        let python = try await onAndroidTV {
            await PythonAndroidTVRemote2.keySamples($0, count: count, warmUp: Self.warmUp)
        }
        let floor = try await onAndroidTV {
            await RawSocketFloor.androidTVSamples($0, count: count, warmUp: Self.warmUp)
        }
        let (oursMedian, pythonMedian, floorMedian) = Self.medians(
            LatencyGroup.androidTVClient, (try? ours.get()) ?? [], (python, "androidtvremote2"),
            (floor, "raw socket (the floor)"))
        guard case .success = ours else {
            let why = if case .failure(let error) = ours { error.description } else { "" }
            return [
                Measurement(
                    "androidtv_key_p50_ms", nil, unit: "ms", target: .info(),
                    note: "tvbench driver-client androidtv: \(why)")
            ]
        }
        var speedup: Double?
        if let theirs = try? pythonMedian.get() { speedup = theirs / oursMedian }
        return [
            Measurement(
                "androidtv_key_p50_ms", oursMedian, unit: "ms", target: .info("faster than androidtvremote2"),
                note: "\(count) keys over the remote session (TLS), send until the TV logs it"),
            Measurement(
                "python_androidtvremote2_key_p50_ms", try? pythonMedian.get(), unit: "ms", target: .info(),
                note: (try? pythonMedian.get()) == nil ? "androidtvremote2: not measured" : "same simulator and count"),
            Measurement("androidtv_key_speedup_vs_python_androidtvremote2", speedup, unit: "×", target: .info()),
        ]
            + Self.floorMeasurements(
                "androidtv_key", ours: oursMedian, python: pythonMedian, floor: floorMedian,
                reference: "python_androidtvremote2")
    }

    private func onAndroidTV<T>(_ body: (AndroidTVBenchTV) async -> T) async throws -> T {
        let tv = try await AndroidTVBenchTV.start(host: BenchAddresses.driverAndroidTV)
        let result = await body(tv)
        await tv.stop()
        return result
    }
}
