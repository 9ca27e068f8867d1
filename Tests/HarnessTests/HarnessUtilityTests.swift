import Glibc
import Harness
import Testing

@Suite("Harness: ports, directories, polling")
struct HarnessUtilityTests {
    /// Binding the port afterwards would be the same race FreePort's users must allow for
    /// (another socket may take it meanwhile); that nobody listens on it holds regardless.
    @Test("FreePort gives a non-zero TCP port nobody listens on", arguments: ["127.0.0.1", "::1"])
    func freeTCPPort(host: String) throws {
        let port = try FreePort.tcp(host: host)
        #expect(port != 0)
        let family = host.contains(":") ? AF_INET6 : AF_INET
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        let result = withSocketAddress(host: host, port: port) { Glibc.connect(fd, $0, $1) }
        let code = errno
        #expect(result == -1 && code == ECONNREFUSED, "connect: \(result), errno \(code)")
    }

    @Test("a reserved TCP port refuses connections, and a listener with SO_REUSEADDR can take it over")
    func reservedTCPPort() throws {
        let reserved = try ReservedTCPPort(host: "127.0.0.1")
        defer { reserved.release() }
        #expect(reserved.port != 0)
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        let refused = withSocketAddress(host: "127.0.0.1", port: reserved.port) { Glibc.connect(client, $0, $1) }
        let code = errno
        #expect(refused == -1 && code == ECONNREFUSED, "connect: \(refused), errno \(code)")

        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withSocketAddress(host: "127.0.0.1", port: reserved.port) { Glibc.bind(listener, $0, $1) }
        #expect(bound == 0 && listen(listener, 1) == 0, "errno \(errno)")
        let second = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(second) }
        let accepted = withSocketAddress(host: "127.0.0.1", port: reserved.port) { Glibc.connect(second, $0, $1) }
        #expect(accepted == 0, "errno \(errno)")
    }

    @Test("FreePort rejects a host that is not an address literal")
    func freePortRejectsNames() {
        #expect(throws: HarnessError.self) { try FreePort.tcp(host: "not-an-address") }
    }

    @Test("a temporary directory is private, holds files, and is removed with its contents")
    func temporaryDirectory() throws {
        let directory = try TemporaryDirectory(prefix: "harness-test")
        var info = stat()
        #expect(stat(directory.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        try FileText.write("x", to: directory.file("a.txt"))
        #expect(FileText.read(directory.file("a.txt")) == "x")
        directory.remove()
        #expect(access(directory.path, F_OK) != 0)
        directory.remove()  // harmless twice
    }

    @Test("waitUntil returns true as soon as the condition holds and false after the timeout")
    func waitUntilPolls() async {
        var calls = 0
        let heldOnThirdCall = await waitUntil(timeout: .seconds(30), interval: .milliseconds(1)) {
            calls += 1
            return calls == 3
        }
        #expect(heldOnThirdCall)
        #expect(calls == 3)
        let clock = ContinuousClock()
        let start = clock.now
        let neverHolds = await waitUntil(timeout: .milliseconds(100)) { false }
        #expect(neverHolds == false)
        #expect(clock.now - start >= .milliseconds(100))
    }

    private func withSocketAddress(
        host: String, port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) -> Int32 {
        if host.contains(":") {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }
}
