import Clients
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
        /// Every port reported, in order (a Samsung's: REST/ws, wss, UPnP).
        var ports: [UInt16]
        /// The Roku serial or the LG UDN (`uuid:…`).
        var serial: String
        var name: String
    }

    let process: ChildProcess
    let directory: TemporaryDirectory
    let log: TVSimLog
    let tvs: [TV]
    var host: String { tvs[0].host }
    var port: UInt16 { tvs[0].port }
    var ports: [UInt16] { tvs[0].ports }
    var serial: String { tvs[0].serial }
    var name: String { tvs[0].name }

    /// The command log, as far as it is written.
    var entries: [JSONValue] { log.entries }

    /// Starts `tvsim VENDOR ARGUMENTS… --log FILE` and waits (a 30 s hang bound) until it
    /// reports its one TV. Several processes may append to one `log`.
    static func start(_ vendor: String, _ arguments: [String], log: TVSimLog? = nil) async throws -> TVSimProcess {
        let directory = try TemporaryDirectory(prefix: "tvsim")
        let log = log ?? TVSimLog(path: directory.file("commands.log"))
        let stderr = directory.file("stderr")
        let process = try await ChildProcess.spawn(
            BuiltProducts.path("tvsim"), [vendor] + arguments + ["--log", log.path],
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
        return TVSimProcess(process: process, directory: directory, log: log, tvs: [tv])
    }

    /// The TV's `/sim/state` (on its first port, which serves it for every vendor but Samsung's
    /// pre-2016 models).
    func simState() async throws -> JSONValue {
        let http = HTTPClient(host: host, port: port, connectTimeout: .seconds(30), requestTimeout: .seconds(30))
        defer { Task { await http.closeIdle() } }
        let response = try await http.request("GET", "/sim/state")
        guard response.status == 200 else {
            throw HarnessError.invalidUse("/sim/state answered HTTP \(response.status)")
        }
        return try JSONParser.parse(response.body)
    }

    func stop() async {
        await process.terminate()
        directory.remove()
    }

    /// `tvsim: roku TV "…" serial S at http://H:P/`, `tvsim: lg TV "…" uuid:U at H: ws P, …` or
    /// `tvsim: samsung pre-2016 TV "…" at H: legacy remote P, …`: the first port after the host.
    private static func reportedTV(_ text: String) -> TV? {
        for line in text.split(separator: "\n") {
            let quoted = line.split(separator: "\"", omittingEmptySubsequences: false)
            guard quoted.count >= 3 else { continue }
            let words = quoted[2].split(separator: " ").map(String.init)
            guard let at = words.firstIndex(of: "at"), at + 1 < words.count else { continue }
            let serial =
                words.firstIndex(of: "serial").map { words[$0 + 1] } ?? words.first { $0.hasPrefix("uuid:") } ?? ""
            if let url = try? URLParts(parsing: words[at + 1]), url.scheme == "http", let port = url.port {
                return TV(host: url.host, port: port, ports: [port], serial: serial, name: String(quoted[1]))
            }
            let host = String(words[at + 1].dropLast())
            let ports = words[(at + 2)...].compactMap { UInt16($0.trimmingSuffix(",")) }
            if let port = ports.first {
                return TV(host: host, port: port, ports: ports, serial: serial, name: String(quoted[1]))
            }
        }
        return nil
    }
}

/// A tvsim command log (`--log FILE`): one JSON object a line, appended by one process or more.
struct TVSimLog {
    let path: String

    var entries: [JSONValue] {
        (FileText.read(path) ?? "").split(separator: "\n").compactMap { try? JSONParser.parse(Array($0.utf8)) }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
