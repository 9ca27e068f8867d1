import Glibc
import Harness

/// python-rokuecp (the library Home Assistant's Roku integration uses) pressing keys on the same
/// simulator, when it is installed: the reference the issue compares our driver against.
///
/// Looked for in `$TVBENCH_PYTHON`, then the virtualenv `~/.cache/tvbench-venv` (made with
/// `python3 -m venv ~/.cache/tvbench-venv && ~/.cache/tvbench-venv/bin/pip install rokuecp`),
/// then `python3`. Never installed by the benchmark itself.
enum PythonRokuECP {
    /// Times `Roku.remote()` like our driver: warm-up first, one session kept alive, the median.
    static let script =
        importing("from rokuecp import Roku") + """
            async def main():
                host, port, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
                keys = ["up", "down"]
                async with Roku(host, port=port) as roku:
                    for index in range(20):
                        await roku.remote(keys[index % 2])
                    samples = []
                    for index in range(count):
                        started = time.perf_counter()
                        await roku.remote(keys[index % 2])
                        samples.append((time.perf_counter() - started) * 1000)
                samples.sort()
                print("SAMPLES", " ".join(repr(sample) for sample in samples))
            asyncio.run(main())
            """

    static func interpreters() -> [String] {
        var candidates: [String] = []
        if let explicit = getenv("TVBENCH_PYTHON").map({ String(cString: $0) }), !explicit.isEmpty {
            candidates.append(explicit)
        }
        if let home = getenv("HOME").map({ String(cString: $0) }) {
            candidates.append(home + "/.cache/tvbench-venv/bin/python")
        }
        candidates.append("python3")
        return candidates.filter { ExecutableLookup.resolve($0) != nil }
    }

    /// Every sample of the `SAMPLES <ms> <ms> …` line a client printed (this script, the raw
    /// socket's, or `tvbench driver-client roku`).
    static func samples(in output: String) -> [Double] {
        let line = output.split(separator: "\n").first { $0.hasPrefix("SAMPLES ") }
        return line.map { $0.dropFirst(8).split(separator: " ").compactMap { Double($0) } } ?? []
    }

    /// Every keypress time in milliseconds, or why they could not be measured.
    static func keypressSamples(host: String, port: UInt16, count: Int) async -> Result<[Double], BenchError> {
        await runReference(
            script, [host, String(port), String(count)],
            notInstalled: "not installed (pip install rokuecp into ~/.cache/tvbench-venv)",
            done: { !samples(in: $0).isEmpty }
        ).map { samples(in: $0) }
    }

    /// The head of every reference script: the standard modules, then `imports` (the client
    /// library), printing `IMPORT_ERROR` and exiting 3 when it is not installed, so the next
    /// interpreter is tried.
    static func importing(_ imports: String) -> String {
        let indented = imports.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        return """
            import asyncio, sys, time
            try:
            \(indented)
            except ImportError as error:
                print("IMPORT_ERROR", error)
                sys.exit(3)

            """
    }

    /// Runs a reference client's `script` with each interpreter in turn until one has its
    /// library and its output is `done`: that output, or why none could run it
    /// (`notInstalled` when none had the library).
    static func runReference(
        _ script: String, _ arguments: [String], notInstalled: String, done: (String) -> Bool
    ) async -> Result<String, BenchError> {
        var why = notInstalled
        for python in interpreters() {
            let result: CommandResult
            do {
                result = try await ChildProcess.run(python, ["-c", script] + arguments, timeout: .seconds(120))
            } catch {
                why = "\(error)"
                continue
            }
            if result.output.hasPrefix("IMPORT_ERROR") { continue }
            guard result.status.isSuccess, done(result.output) else {
                why = "\(python) failed: \(DriverLatency.tail(result))"
                continue
            }
            return .success(result.output)
        }
        return .failure(BenchError(why))
    }
}
