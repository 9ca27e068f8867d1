/// Who a simulated LG is: name, model, UDN and its two MACs, derived from its address so the
/// same `--host` gives the same TV on every run.
struct LGIdentity: Sendable {
    let name: String
    let modelName: String
    /// "uuid:…", the description's UDN and the SSDP USN's first part.
    let udn: String
    /// Lowercase with colons, as the connection manager reports them.
    let wiredMAC: String
    let wifiMAC: String

    /// - Parameter port: the bound SSAP port; mixed in when it is not 3000, so simulators
    ///   sharing a host on different ports (tests with port 0) are different TVs.
    init(host: String, port: UInt16, name: String?, model: String?) {
        let octets = host.split(separator: ".").compactMap { UInt8($0) }
        var seed: UInt32 =
            octets.count == 4 ? (UInt32(octets[1]) << 16 | UInt32(octets[2]) << 8 | UInt32(octets[3])) : 0
        if octets.count != 4 || port != 3000 { seed = RokuIdentity.fnv1a("lg \(host):\(port)") & 0xFF_FFFF }
        modelName = model ?? "OLED55C1AUB"
        self.name = name ?? "[LG] webOS TV \(modelName)"
        let tail: [UInt8] = [UInt8(seed >> 16 & 0xFF), UInt8(seed >> 8 & 0xFF), UInt8(seed & 0xFF)]
        // a8:23:fe and 64:95:6c are LG Electronics OUIs (wired and Wi-Fi on real sets differ).
        wiredMAC = Self.mac([0xA8, 0x23, 0xFE] + tail)
        wifiMAC = Self.mac([0x64, 0x95, 0x6C] + tail)
        let hash = RokuIdentity.fnv1a("lg-udn \(host):\(port)")
        udn = "uuid:" + SimHex.uuid(hash: hash, seed: seed, variant: "b", node: [0xA8, 0x23, 0xFE] + tail)
    }

    /// The UDN without "uuid:", as `hello` gives it (`deviceUUID`).
    var uuid: String { String(udn.dropFirst("uuid:".count)) }

    private static func mac(_ bytes: [UInt8]) -> String {
        bytes.map { SimHex.digits(UInt32($0), 2) }.joined(separator: ":")
    }
}
