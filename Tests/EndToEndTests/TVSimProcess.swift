import Glibc
import Harness
import Support
import TestSupport
import Wire

/// Simulated TVs in a `tvsim` process of their own, for the tests of a child `tv2mqtt`: that
/// child keeps its own deadlines in real time (a probe's 5 s, a search window), and a
/// simulator in the test process answers only when the loop every other test shares gets to
/// it, which on one busy core can be later than that.
struct TVSimProcess {
    /// One TV as tvsim reported it on its standard error.
    struct TV {
        var host: String
        var port: UInt16
        /// The Roku serial or the LG UDN (`uuid:…`).
        var serial: String
    }

    let process: ChildProcess
    let directory: TemporaryDirectory
    let tvs: [TV]
    var host: String { tvs[0].host }
    var port: UInt16 { tvs[0].port }
    var serial: String { tvs[0].serial }

    /// The command log (`--log`), one JSON object a line, as far as it is written.
    var entries: [JSONValue] {
        (FileText.read(directory.file("commands.log")) ?? "").split(separator: "\n").compactMap {
            try? JSONParser.parse(Array($0.utf8))
        }
    }

    /// Starts `tvsim VENDOR ARGUMENTS… --log FILE` and waits (a 30 s hang bound) until it
    /// reports its one TV.
    static func start(_ vendor: String, _ arguments: [String]) async throws -> TVSimProcess {
        let directory = try TemporaryDirectory(prefix: "tvsim")
        let stderr = directory.file("stderr")
        let process = try await ChildProcess.spawn(
            BuiltProducts.path("tvsim"), [vendor] + arguments + ["--log", directory.file("commands.log")],
            stdout: .discard, stderr: .file(stderr))
        let reported = await waitUntil {
            !process.isRunning || reportedTV(FileText.read(stderr) ?? "") != nil
        }
        guard reported, process.isRunning, let tv = reportedTV(FileText.read(stderr) ?? "") else {
            await process.terminate()
            let text = FileText.read(stderr) ?? ""
            directory.remove()
            throw HarnessError.timedOut(what: "tvsim \(vendor) reporting its TV (\(text))", after: .seconds(30))
        }
        return TVSimProcess(process: process, directory: directory, tvs: [tv])
    }

    func stop() async {
        await process.terminate()
        directory.remove()
    }

    /// `tvsim: roku TV "…" serial S at http://H:P/` or `tvsim: lg TV "…" uuid:U at H: ws P, …`.
    private static func reportedTV(_ text: String) -> TV? {
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            if let at = words.firstIndex(of: "at"), let serial = words.firstIndex(of: "serial"),
                at + 1 < words.count, serial + 1 < words.count,
                let url = words[at + 1].split(separator: "/").dropFirst().first,
                let colon = url.lastIndex(of: ":"), let port = UInt16(url[url.index(after: colon)...])
            {
                return TV(host: String(url[..<colon]), port: port, serial: words[serial + 1])
            }
            if let udn = words.first(where: { $0.hasPrefix("uuid:") }), let at = words.firstIndex(of: "at"),
                at + 3 < words.count, words[at + 2] == "ws", let port = UInt16(words[at + 3].trimmingSuffix(","))
            {
                return TV(host: String(words[at + 1].dropLast()), port: port, serial: udn)
            }
        }
        return nil
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
