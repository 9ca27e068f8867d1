/// The names a peer's certificate gives in its subject, as text: some devices name themselves
/// there (an Android TV's common name is `atvremote/<product>/<device>/<name>/<MAC>`).
public struct TLSPeerSubject: Equatable, Sendable {
    public var commonName: String?
    public var dnQualifier: String?

    public init(commonName: String? = nil, dnQualifier: String? = nil) {
        self.commonName = commonName
        self.dnQualifier = dnQualifier
    }
}
