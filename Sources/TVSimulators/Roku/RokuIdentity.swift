/// Who a simulated Roku is: serial, MACs, UDN and names, derived from its address so the same
/// `--host` gives the same TV on every run (the bridge keys TVs by serial and persists them).
struct RokuIdentity: Sendable {
    let serial: String
    let name: String
    let udn: String
    let deviceID: String
    let wifiMAC: String
    let ethernetMAC: String

    /// - Parameters:
    ///   - port: the bound ECP port; mixed in when it is not 8060, so simulators sharing a host
    ///     on different ports (tests with port 0) are different TVs.
    init(host: String, port: UInt16, kind: RokuDeviceKind, name: String?, serial: String?) {
        let octets = host.split(separator: ".").compactMap { UInt8($0) }
        let isIPv4 = octets.count == 4
        // 24 bits that tell this TV apart: the last three octets, or a hash for other hosts.
        var seed: UInt32 =
            isIPv4 ? (UInt32(octets[1]) << 16 | UInt32(octets[2]) << 8 | UInt32(octets[3])) : 0
        if !isIPv4 || port != 8060 {
            seed = Self.fnv1a("\(host):\(port)") & 0xFF_FFFF
        }
        let digits =
            isIPv4 ? octets.map { Self.pad(String($0), 3) }.joined() : Self.pad(String(seed), 12)
        let portSuffix = port == 8060 ? "" : "P\(port)"
        self.serial = serial ?? "YNSIM\(digits)\(portSuffix)"
        let last = isIPv4 ? String(octets[3]) : String(seed & 0xFF)
        self.name = name ?? (kind == .tv ? "Roku TV \(last)" : "Roku Stick \(last)")
        // Roku's own OUI (b0:a7:37) for Wi-Fi, and its neighbour for Ethernet, so the two never clash.
        let tail = [UInt8(seed >> 16 & 0xFF), UInt8(seed >> 8 & 0xFF), UInt8(seed & 0xFF)]
        self.wifiMAC = Self.mac([0xB0, 0xA7, 0x37] + tail)
        self.ethernetMAC = Self.mac([0xB0, 0xA7, 0x38] + tail)
        // Real UDNs end with the Wi-Fi MAC (device-info-standby.xml); the serial hash makes
        // TVs with an explicit serial distinct too.
        let hash = Self.fnv1a(self.serial)
        self.udn =
            "015e5108-9000-\(Self.hex(UInt32(hash >> 16), 4))-\(Self.hex(hash & 0xFFFF, 4))-"
            + wifiMAC.filter { $0 != ":" }
        self.deviceID = "S\(Self.hex(hash, 8).uppercased())SIM"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func hex(_ value: UInt32, _ width: Int) -> String {
        pad(String(value, radix: 16), width)
    }

    private static func mac(_ bytes: [UInt8]) -> String {
        bytes.map { pad(String($0, radix: 16), 2) }.joined(separator: ":")
    }

    static func fnv1a(_ text: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return hash
    }
}
