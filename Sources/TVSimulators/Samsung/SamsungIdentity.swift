/// Who a simulated Samsung is: name, DUID, Wi-Fi MAC and model, derived from its address so
/// the same `--host` gives the same TV on every run (the bridge keys TVs by DUID and persists
/// them).
struct SamsungIdentity: Sendable {
    let name: String
    /// "uuid:…", the `id`/`duid` REST reports and the SSDP USN carries.
    let duid: String
    /// Uppercase with colons, as Tizen writes `wifiMac`.
    let wifiMAC: String
    let modelName: String
    /// The platform code (`device.model`); its first two digits are the model year.
    let modelCode: String

    /// - Parameter port: the bound REST port; mixed in when it is not 8001, so simulators
    ///   sharing a host on different ports (tests with port 0) are different TVs.
    /// - Parameter generation: a Frame generation's own model code and name (`SamsungArtFirmware`).
    init(
        host: String, port: UInt16, name: String?, model: String?, frame: Bool,
        generation: (code: String, name: String)? = nil
    ) {
        let octets = host.split(separator: ".").compactMap { UInt8($0) }
        let isIPv4 = octets.count == 4
        var seed: UInt32 =
            isIPv4 ? (UInt32(octets[1]) << 16 | UInt32(octets[2]) << 8 | UInt32(octets[3])) : 0
        if !isIPv4 || port != 8001 {
            seed = RokuIdentity.fnv1a("samsung \(host):\(port)") & 0xFF_FFFF
        }
        let last = isIPv4 ? String(octets[3]) : String(seed & 0xFF)
        self.name = name ?? (frame ? "[TV] Samsung Frame \(last)" : "[TV] Samsung \(last)")
        // 8C:EA:48 is one of Samsung's OUIs (Home Assistant's DHCP matcher lists it).
        let bytes: [UInt8] = [0x8C, 0xEA, 0x48, UInt8(seed >> 16 & 0xFF), UInt8(seed >> 8 & 0xFF), UInt8(seed & 0xFF)]
        wifiMAC = bytes.map { SimHex.digits(UInt32($0), 2).uppercased() }.joined(separator: ":")
        let hash = RokuIdentity.fnv1a("samsung-duid \(host):\(port)")
        // A UUID whose tail is the MAC, as on real TVs' DUIDs and UDNs.
        duid = "uuid:" + SimHex.uuid(hash: hash, seed: seed, variant: "a", node: bytes)
        modelName = model ?? generation?.name ?? (frame ? "QE55LS03TAUXXU" : "QE55Q60TAUXXU")
        modelCode = generation?.code ?? (frame ? "20_MUSEL_UHD_FRAME" : "20_MUSEL_UHD")
    }
}
