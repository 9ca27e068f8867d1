import Glibc
import Harness
import Support

/// The bridge built with the `TV2MQTT_TRACE` compilation condition, for `latency-budget`: the
/// same static release build as the installed one (`BridgeBuild`), in a scratch path of its
/// own (`.build/trace`), so the installed build stays free of timestamps.
///
/// `tvbench latency-budget` builds it (incremental after the first time); `TVBENCH_TRACE_BRIDGE`
/// names a trace build made elsewhere. Because tvbench builds it, `tvbench --quick` in CI is the
/// check that the trace build still compiles.
enum TraceBuild {
    /// What the trace build writes the records to at exit (`TraceRecorder`).
    static let fileVariable = "TV2MQTT_TRACE_FILE"
    /// A string only a trace build contains: the installed build must not.
    static let marker = fileVariable

    /// The package's root: tvbench runs from `<root>/.build/…/release/`.
    static func packageRoot() -> String? {
        let directory = Products.directory
        guard let range = directory.firstRange(of: "/.build/") else { return nil }
        return String(directory[..<range.lowerBound])
    }

    /// The trace bridge's path, built (or brought up to date) first.
    static func executable() async throws -> String {
        if let override = getenv("TVBENCH_TRACE_BRIDGE").map({ String(cString: $0) }) { return override }
        guard let root = packageRoot() else {
            throw BenchError("cannot find the package next to \(Products.directory); set TVBENCH_TRACE_BRIDGE")
        }
        let arguments = [
            "build", "-c", "release", "--static-swift-stdlib", "--product", "tv2mqtt",
            "-Xswiftc", "-DTV2MQTT_TRACE", "--scratch-path", root + "/.build/trace",
        ]
        writeStandardError("tvbench: building the trace bridge (swift \(arguments.joined(separator: " ")))")
        let result = try await ChildProcess.run("swift", arguments, workingDirectory: root, timeout: .seconds(3600))
        let path = root + "/.build/trace/release/tv2mqtt"
        guard result.status.isSuccess, access(path, X_OK) == 0 else {
            let tail = (result.error + result.output).split(separator: "\n").suffix(5).joined(separator: "\n")
            throw BenchError("the trace build failed:\n\(tail)")
        }
        guard BridgeBuild.file(path, contains: marker) == true else {
            throw BenchError("\(path) was built without TV2MQTT_TRACE")
        }
        return path
    }

    /// The records a trace bridge wrote: per command, the wall-clock seconds of each stage
    /// (`TraceStage` order; nil for a stage the transport skipped).
    static func records(in path: String) throws -> [[Double?]] {
        guard let text = FileText.read(path) else { throw BenchError("the trace bridge wrote no \(path)") }
        var lines = text.split(separator: "\n")
        guard let header = lines.first else { throw BenchError("\(path) is empty") }
        let names = header.split(separator: " ").map(String.init)
        guard names == TraceStage.allCases.map({ "\($0)" }) else {
            throw BenchError("\(path) has stages \(names), tvbench knows \(TraceStage.allCases)")
        }
        lines.removeFirst()
        return lines.map { line in
            line.split(separator: " ").map { field in Int64(field).map { Double($0) / 1_000_000_000 } }
        }
    }
}
