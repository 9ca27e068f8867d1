import Net

/// Who an Android TV says it is in its certificate's subject: the common name
/// `atvremote/<product>/<device>/<name>/<MAC>` (a Shield: `atvremote/darcy/darcy/SHIELD Android TV/…`),
/// or on older devices (a Nexus Player) `dnQualifier=<product>/<device>/<name>` with
/// `CN=atvremote/<MAC>`.
struct AndroidTVCertificateName: Equatable {
    var name: String?
    var product: String?
    /// Lower case, colon-separated; nil when the subject holds none.
    var mac: String?

    init(name: String?, product: String?, mac: String?) {
        (self.name, self.product, self.mac) = (name, product, mac)
    }

    init(_ subject: TLSPeerSubject) {
        let common = (subject.commonName ?? "").split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let qualifier = (subject.dnQualifier ?? "").split(separator: "/", omittingEmptySubsequences: false).map(
            String.init)
        mac = common.last.flatMap(Self.normalizedMAC)
        if subject.dnQualifier?.isEmpty == false {
            name = qualifier.last
            product = qualifier.count > 1 ? qualifier.first : nil
        } else if common.count > 2 {
            name = common[common.count - 2]
            product = common.count > 4 ? common[1] : nil
        }
        if name?.isEmpty == true { name = nil }
        if product?.isEmpty == true { product = nil }
    }

    /// `AA:BB:CC:DD:EE:FF` or `aabbccddeeff` as `aa:bb:cc:dd:ee:ff`; nil for anything else.
    static func normalizedMAC(_ text: String) -> String? {
        let digits = text.lowercased().filter { $0 != ":" && $0 != "-" }
        guard digits.count == 12, digits.allSatisfy(\.isHexDigit) else { return nil }
        var pairs: [String] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            pairs.append(String(digits[index..<next]))
            index = next
        }
        return pairs.joined(separator: ":")
    }
}
