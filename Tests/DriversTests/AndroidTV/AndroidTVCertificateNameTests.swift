import Net
import Testing

@testable import Drivers

/// Who an Android TV says it is in its certificate: the forms androidtvremote2 documents (a
/// Shield's common name, a Nexus Player's dnQualifier), and subjects that name no MAC.
@Suite("Android TV: the name and MAC in the TV's certificate")
struct AndroidTVCertificateNameTests {
    @Test("atvremote/<product>/<device>/<name>/<MAC>: name, product and MAC; the id is the MAC's")
    func shield() {
        let named = AndroidTVCertificateName(
            TLSPeerSubject(commonName: "atvremote/darcy/darcy/SHIELD Android TV/00:04:4B:AA:BB:CC"))
        #expect(
            named == AndroidTVCertificateName(name: "SHIELD Android TV", product: "darcy", mac: "00:04:4b:aa:bb:cc"))
        #expect(named.mac.flatMap(AndroidTVProbe.id(mac:))?.rawValue == "androidtv_00044baabbcc")
    }

    @Test("dnQualifier=<product>/<device>/<name> with CN=atvremote/<MAC>")
    func nexusPlayer() {
        let named = AndroidTVCertificateName(
            TLSPeerSubject(commonName: "atvremote/00:1A:11:22:33:44", dnQualifier: "fugu/fugu/Nexus Player"))
        #expect(named == AndroidTVCertificateName(name: "Nexus Player", product: "fugu", mac: "00:1a:11:22:33:44"))
    }

    @Test("no MAC, an empty name, no subject at all")
    func incomplete() {
        #expect(AndroidTVCertificateName(TLSPeerSubject(commonName: "atvremote/a/b/TV/not-a-mac")).mac == nil)
        #expect(AndroidTVCertificateName(TLSPeerSubject(commonName: "atvremote/a/b//00:04:4B:AA:BB:CC")).name == nil)
        #expect(
            AndroidTVCertificateName(TLSPeerSubject()) == AndroidTVCertificateName(name: nil, product: nil, mac: nil))
        #expect(AndroidTVCertificateName.normalizedMAC("3C5CC4123456") == "3c:5c:c4:12:34:56")
    }
}
