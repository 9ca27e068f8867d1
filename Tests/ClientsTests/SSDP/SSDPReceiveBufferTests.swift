import Harness
import Net
import Support
import Testing

@testable import Clients

/// Issue 18: a search of 5,000 TVs gets 5,000 answers within MX seconds; the search socket
/// asks the kernel for room to queue them (`SSDPDiscoverer.receiveBufferBytes`), which the
/// kernel grants up to net.core.rmem_max and reports doubled.
@Suite("SSDP receive buffer")
struct SSDPReceiveBufferTests {
    @Test("the search socket asks for its receive buffer; the kernel grants it up to net.core.rmem_max")
    func searchSocketBuffer() throws {
        let discoverer = SSDPDiscoverer(
            searchAddress: try SocketAddress(ip: "127.255.255.255", port: 1900), interfaces: [], targets: ["roku:ecp"],
            logger: .disabled)
        let socket = try discoverer.openSearchSocket()
        defer { socket.close() }
        let text = FileText.read("/proc/sys/net/core/rmem_max")?.split(separator: "\n").first ?? ""
        let rmemMax = try #require(Int32(text))
        let expected = min(SSDPDiscoverer.receiveBufferBytes, rmemMax) * 2
        #expect(socket.receiveBufferSize == expected)
    }
}
