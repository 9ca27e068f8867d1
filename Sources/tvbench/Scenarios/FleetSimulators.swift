import Harness
import Support

/// The fleet's simulated TVs: one `tvsim fleet` process per `maxTVsPerProcess` TVs, on
/// consecutive loopback addresses from `BenchAddresses.fleetFirst`: Rokus, then Samsungs, then
/// LGs, then Android TVs.
///
/// Several processes because of descriptors: a simulated Samsung holds five sockets (three
/// listeners, two SSDP) and the bridge's connections to it, a Roku three and its connection,
/// so 5,000 TVs in one process need about 32,000, more than a common hard limit (20,000 here)
/// that tvsim cannot raise without CAP_SYS_RESOURCE. The first process binds the SSDP port
/// (`--ssdp-port 0`, `--mdns-port 0`) and reports them; the others join them, so one broadcast
/// search (and one broadcast browse) reaches all.
struct FleetSimulators {
    static let maxTVsPerProcess = 2000

    let processes: [ChildProcess]
    let ssdpPort: UInt16
    /// Where the Android TVs answer DNS-SD; nil without any.
    let mdnsPort: UInt16?

    static func start(
        rokus: Int, samsungs: Int, lgs: Int = 0, androidTVs: Int = 0, in directory: TemporaryDirectory
    ) async throws -> FleetSimulators {
        var processes: [ChildProcess] = []
        var ssdpPort: UInt16?
        var mdnsPort: UInt16?
        var first = 0
        let total = rokus + samsungs + lgs + androidTVs
        /// How many of the TVs numbered `range` fall in `vendor` (the TVs numbered `vendor`).
        func overlap(_ range: Range<Int>, _ vendor: Range<Int>) -> Int { range.clamped(to: vendor).count }
        do {
            while first < total {
                let count = min(maxTVsPerProcess, total - first)
                let chunk = first..<(first + count)
                let chunkRokus = overlap(chunk, 0..<rokus)
                let chunkSamsungs = overlap(chunk, rokus..<(rokus + samsungs))
                let chunkLGs = overlap(chunk, (rokus + samsungs)..<(rokus + samsungs + lgs))
                let chunkAndroidTVs = count - chunkRokus - chunkSamsungs - chunkLGs
                let stderrPath = directory.file("tvsim-\(processes.count).err")
                let process = try await ChildProcess.spawn(
                    try Products.path("tvsim"),
                    [
                        "fleet", "--roku", String(chunkRokus), "--samsung", String(chunkSamsungs),
                        "--lg", String(chunkLGs), "--androidtv", String(chunkAndroidTVs),
                        "--first-host", BenchAddresses.fleetHost(first), "--ssdp-port", String(ssdpPort ?? 0),
                        "--mdns-port", String(mdnsPort ?? 0),
                        "--log", directory.file("commands.log"),
                    ], stdout: .discard, stderr: .file(stderrPath))
                processes.append(process)
                try await waitForTVs(count, process, stderrPath)
                ssdpPort = try ssdpPort ?? reported("ssdp", stderrPath)
                if chunkAndroidTVs > 0 { mdnsPort = try mdnsPort ?? reported("mdns", stderrPath) }
                first += count
            }
        } catch {
            for process in processes { await process.terminate(grace: .seconds(10)) }
            throw error
        }
        return FleetSimulators(processes: processes, ssdpPort: ssdpPort ?? 0, mdnsPort: mdnsPort)
    }

    func stop() async {
        for process in processes { await process.terminate(grace: .seconds(10)) }
    }

    private static func waitForTVs(_ count: Int, _ process: ChildProcess, _ stderrPath: String) async throws {
        let started = await waitUntil(timeout: .seconds(180), interval: .milliseconds(100)) {
            !process.isRunning
                || (FileText.read(stderrPath) ?? "").split(separator: "\n").count {
                    ["tvsim: roku", "tvsim: samsung", "tvsim: lg", "tvsim: androidtv"].contains(where: $0.hasPrefix)
                } >= count
        }
        guard started, process.isRunning else {
            let tail = (FileText.read(stderrPath) ?? "").split(separator: "\n").suffix(3).joined(separator: " ")
            throw BenchError("tvsim fleet did not start \(count) TVs: \(tail)")
        }
    }

    /// The port tvsim reported binding for `what` (`tvsim: ssdp port P`, `tvsim: mdns port P`).
    private static func reported(_ what: String, _ stderrPath: String) throws -> UInt16 {
        let prefix = "tvsim: \(what) port "
        let line = (FileText.read(stderrPath) ?? "").split(separator: "\n").first { $0.hasPrefix(prefix) }
        guard let port = line.flatMap({ UInt16($0.dropFirst(prefix.count)) }) else {
            throw BenchError("tvsim fleet did not report its \(what) port")
        }
        return port
    }
}

extension BenchAddresses {
    /// The fleet's TV number `index` (from 0): 127.78.0.1 onwards, 127.78.19.137 for the
    /// 5,000th; always inside 127.0.0.0/8.
    static func fleetHost(_ index: Int) -> String {
        let first = fleetFirst.split(separator: ".").compactMap { UInt32($0) }.reduce(0) { $0 << 8 | $1 }
        let value = first + UInt32(index)
        precondition(value >> 24 == 127, "the fleet would leave 127.0.0.0/8")
        return [24, 16, 8, 0].map { String(value >> UInt32($0) & 0xFF) }.joined(separator: ".")
    }
}
