import Drivers
import TVModel
import TestSupport
import Testing
import Wire

@testable import ConfigurationLoading

/// `[roku:|samsung:|samsung-legacy:|lg:|androidtv:]HOST[:PORT]` (`--tv`, and `send`'s TV given by address) read into a
/// `TVAddress`, and what a `--tv` adds to the configuration tree.
@Suite("TV addresses on the command line")
struct TVAddressTests {
    @Test(
        "kind, host and port are read; an IPv6 address loses its brackets",
        arguments: [
            ("127.0.0.4", TVAddress(host: "127.0.0.4")),
            ("roku:127.0.0.2", TVAddress(kind: .roku, host: "127.0.0.2")),
            ("samsung:127.0.0.3:8001", TVAddress(kind: .samsung, host: "127.0.0.3", port: 8001)),
            ("tv.local:8060", TVAddress(host: "tv.local", port: 8060)),
            ("samsung:[::1]", TVAddress(kind: .samsung, host: "::1")),
            ("samsung-legacy:127.0.0.81", TVAddress(kind: .samsungLegacy, host: "127.0.0.81")),
            ("samsung-legacy:tv.local:55001", TVAddress(kind: .samsungLegacy, host: "tv.local", port: 55001)),
            ("lg:127.0.0.7", TVAddress(kind: .lg, host: "127.0.0.7")),
        ])
    func parsed(text: String, expected: TVAddress) throws {
        #expect(try ConfigurationLoader.parseTVFlag(text, vendors: .shipped) == expected)
    }

    @Test("a bad port or an empty host is refused, naming the flag")
    func refused() {
        #expect(throws: ConfigError("--tv: bad port in 'roku:127.0.0.2:0'")) {
            try ConfigurationLoader.parseTVFlag("roku:127.0.0.2:0", vendors: .shipped)
        }
        #expect(
            throws: ConfigError(
                "--tv: expected [roku:|samsung:|samsung-legacy:|lg:|androidtv:]HOST[:PORT], got 'samsung:'")
        ) {
            try ConfigurationLoader.parseTVFlag("samsung:", vendors: .shipped)
        }
    }

    @Test("samsung-legacy is a kind of its own, spelled as in tvs[].kind and the tv/add request")
    func legacyKind() throws {
        #expect(TVKind(rawValue: "samsung-legacy") == .samsungLegacy)
        #expect([Vendor].shipped.vendor(.samsungLegacy)?.defaultPort == 55000)
        let entry = try ConfigurationLoader.parseTVFlag("samsung-legacy:192.0.2.5", vendors: .shipped)
            .configurationEntry
        #expect(entry == .object(["host": .string("192.0.2.5"), "kind": .string("samsung-legacy")]))
    }

    @Test("as a tvs entry: only the parts given")
    func configurationEntry() {
        #expect(TVAddress(host: "127.0.0.4").configurationEntry == .object(["host": .string("127.0.0.4")]))
        #expect(
            TVAddress(kind: .samsung, host: "::1", port: 8001).configurationEntry
                == .object(["host": .string("::1"), "kind": .string("samsung"), "port": .integer(8001)]))
    }
}
