import Glibc
import Harness

/// `--svg DIR`: draws the run that just ended into `DIR/command-latency.svg` and
/// `DIR/fleet.svg` (a plot whose scenarios did not run is left out, and said so).
enum SVGPlots {
    static let latencyFile = "command-latency.svg"
    static let fleetFile = "fleet.svg"

    /// Writes the plots; returns the paths written.
    static func write(to directory: String, runs: Int) throws -> [String] {
        if mkdir(directory, 0o755) != 0 && errno != EEXIST {
            throw BenchError("cannot create \(directory): \(String(cString: strerror(errno)))")
        }
        let samples = PlotSamples.shared
        var written: [String] = []
        for (file, document) in [
            (latencyFile, LatencyPlot.draw(samples.latency, runs: runs)), (fleetFile, FleetPlot.draw(samples.fleet)),
        ] {
            guard let document else {
                writeStandardError("tvbench: \(file) not drawn: no scenario of this run measured it")
                continue
            }
            let path = directory + "/" + file
            try FileText.write(document, to: path)
            written.append(path)
        }
        return written
    }
}
