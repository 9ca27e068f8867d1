import Clients
import Net
import Synchronization
import Wire

/// A TV of a vendor tv2mqtt does not ship, on real sockets, for the stand-in vendor test: it
/// answers an SSDP search for its own target, and speaks a line protocol on TCP (`WHO` →
/// `acme <serial>`, `SETTING` → its remote setting, `POWER` → `ON|OFF`, `STATE` → `<screen
/// ON|OFF> <sound output> <picture mode> <eco ON|OFF>`, `POWER ON|OFF`, `KEY <name>`, `SCREEN
/// ON|OFF`, `SOUND <output>`, `PICTURE <mode>`, `ECO ON|OFF`, `TOAST <message>` → `OK`),
/// recording every command it is sent (a toast's line breaks travel as `\n`). An asleep TV
/// reports standby and stays in it whatever it is sent, as one whose network power-on is off.
final class StandInTV: Sendable {
    static let searchTarget = "urn:acme-example:device:StandIn:1"
    /// What `SETTING` answers: the reading of the vendor's diagnostic sensor.
    static let remoteSetting = "open"

    let host: String
    let serial: String
    let asleep: Bool
    private let listener: TCPListener
    private let ssdp: UDPSocket
    private let answers: UDPSocket
    private let received = Mutex<[String]>([])
    private let shown = Mutex<(screenOn: Bool, output: String, picture: String, eco: Bool)>(
        (true, "tv_speaker", "standard", false))
    private let tasks = Mutex<[Task<Void, Never>]>([])

    var port: UInt16 { listener.address.port }
    var ssdpPort: UInt16 { ssdp.localAddress.port }
    /// Every command line received, in order ("KEY HOME", "SCREEN OFF"…).
    var commands: [String] { received.withLock { $0 } }
    var keys: [String] { commands.filter { $0.hasPrefix("KEY ") }.map { String($0.dropFirst(4)) } }
    /// The toasts shown, with their line breaks.
    var toasts: [String] {
        commands.filter { $0.hasPrefix("TOAST ") }.map { String($0.dropFirst(6)).replacing("\\n", with: "\n") }
    }

    /// Listens on `host` (a free TCP port) and answers SSDP searches sent to any loopback
    /// address on `ssdpPort` (a free UDP port, as the bridge's search goes to 127.255.255.255).
    init(host: String, serial: String, asleep: Bool = false) throws {
        self.host = host
        self.serial = serial
        self.asleep = asleep
        listener = try TCPListener.bind(host: host, port: 0)
        ssdp = try UDPSocket.bind(host: "0.0.0.0", port: 0, reuse: true)
        // Answers go out from the TV's own address, as the bridge accepts no other.
        answers = try UDPSocket.bind(host: host, port: ssdp.localAddress.port, reuse: true)
        let serving = Task { [listener, self] in
            while let connection = try? await listener.accept() {
                Task { await self.serve(connection) }
            }
        }
        let answering = Task { [ssdp, answers, self] in
            while let search = try? await ssdp.receive() {
                guard String(decoding: search.bytes, as: UTF8.self).contains(Self.searchTarget) else { continue }
                // Three answers a search: the bridge must not depend on one datagram.
                for _ in 0..<3 {
                    let answer = SSDPResponse(
                        searchTarget: Self.searchTarget, location: "http://\(host):\(self.port)/",
                        usn: "uuid:acme-\(serial)::\(Self.searchTarget)")
                    try? await answers.send(answer.encode(), to: search.from)
                    try? await EventLoop.sleep(for: .milliseconds(200))
                }
            }
        }
        tasks.withLock { $0 = [serving, answering] }
    }

    func stop() {
        listener.close()
        ssdp.close()
        answers.close()
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }

    private func serve(_ connection: TCPConnection) async {
        defer { connection.close() }
        while let line = try? await StandInLine.read(connection) {
            let reply: String
            if line == "WHO" {
                reply = "acme \(serial)"
            } else if line == "SETTING" {
                reply = Self.remoteSetting
            } else if line == "POWER" {
                reply = asleep ? "OFF" : "ON"
            } else if line == "STATE" {
                reply = shown.withLock {
                    "\($0.screenOn ? "ON" : "OFF") \($0.output) \($0.picture) \($0.eco ? "ON" : "OFF")"
                }
            } else if ["POWER ", "KEY ", "SCREEN ", "SOUND ", "PICTURE ", "ECO ", "TOAST "].contains(
                where: line.hasPrefix)
            {
                received.withLock { $0.append(line) }
                apply(line)
                reply = "OK"
            } else {
                reply = "ERR"
            }
            guard (try? await StandInLine.write(reply, to: connection)) != nil else { return }
        }
    }
}

extension StandInTV {
    /// What a command changes on the TV: the picture, the sound output, the picture mode, eco.
    fileprivate func apply(_ line: String) {
        if line.hasPrefix("SCREEN ") { shown.withLock { $0.screenOn = line == "SCREEN ON" } }
        if line.hasPrefix("SOUND ") { shown.withLock { $0.output = String(line.dropFirst(6)) } }
        if line.hasPrefix("PICTURE ") { shown.withLock { $0.picture = String(line.dropFirst(8)) } }
        if line.hasPrefix("ECO ") { shown.withLock { $0.eco = line == "ECO ON" } }
    }
}

/// The stand-in protocol's framing: one line of ASCII text, read and written with a deadline.
enum StandInLine {
    static func read(_ connection: TCPConnection) async throws -> String? {
        var bytes: [UInt8] = []
        while !bytes.contains(UInt8(ascii: "\n")) {
            let chunk = try await connection.read(maxBytes: 256, deadline: .now + .seconds(5))
            if chunk.isEmpty { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            bytes += chunk
            guard bytes.count < 1024 else { return nil }
        }
        return String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }

    static func write(_ line: String, to connection: TCPConnection) async throws {
        try await connection.write(Array((line + "\n").utf8), deadline: .now + .seconds(5))
    }

    /// One request on a fresh connection: the reply line.
    static func ask(_ request: String, host: String, port: UInt16) async throws -> String {
        let connection = try await TCPConnection.connect(host: host, port: port, timeout: .seconds(3))
        defer { connection.close() }
        try await write(request, to: connection)
        guard let reply = try await read(connection) else {
            throw NetError(.closed, "ask \(host):\(port)", "closed without an answer")
        }
        return reply
    }
}
