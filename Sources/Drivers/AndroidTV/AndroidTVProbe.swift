import Net
import Support
import TVModel

/// Asks a host whether it is an Android TV: its pairing port (the one after the remote port)
/// must complete a TLS handshake with the bridge's certificate, and its own certificate names
/// the TV and its MAC. Nothing is sent, so nothing shows on the screen.
enum AndroidTVProbe {
    /// The id a TV's MAC gives, from its certificate as from its mDNS TXT `bt`: the two agree.
    static func id(mac: String) -> TVID? {
        TVID(kind: .androidtv, hardwareID: mac.filter { $0 != ":" })
    }

    static func describe(host: String, port: UInt16?, settings: DriverSettings) async throws(DriverError)
        -> TVDescription
    {
        let remotePort = port ?? AndroidTVPorts.remote
        let pairingPort = AndroidTVPorts.pairing(after: remotePort)
        let identity = try await settings.clientIdentity.forDriver()
        let subject: TLSPeerSubject
        do {
            let tcp = try await TCPConnection.connect(host: host, port: pairingPort, timeout: settings.connectTimeout)
            let context = try TLSContext.client(TLSConfiguration(trust: .selfSigned(pinned: nil), identity: identity))
            let tls = try await TLSConnection.connect(
                over: tcp, context: context, serverName: nil, deadline: LoopClock.current.now + settings.requestTimeout)
            subject = tls.peerSubject
            tls.close()
        } catch let error as NetError where error.kind == .timedOut {
            throw DriverError(.timeout, "no Android TV at \(host): \(error)")
        } catch {
            throw DriverError(.unreachable, "no Android TV at \(host): its pairing port \(pairingPort): \(error)")
        }
        let named = AndroidTVCertificateName(subject)
        guard subject.commonName?.hasPrefix("atvremote") == true || named.mac != nil else {
            throw DriverError(
                .badResponse, "\(host):\(pairingPort) speaks TLS but its certificate is not an Android TV's")
        }
        return description(named, host: host, port: remotePort)
    }

    static func description(_ named: AndroidTVCertificateName, host: String, port: UInt16) -> TVDescription {
        let id = named.mac.flatMap(Self.id(mac:)) ?? TVID(kind: .androidtv, hardwareID: host)!
        let identity = TVIdentity(
            id: id, kind: .androidtv, name: named.name.map(TVDescription.boundedName) ?? "Android TV",
            manufacturer: Vendor.androidTV.manufacturer, model: named.product.map(TVDescription.boundedName),
            host: host, port: port, macs: named.mac.map { [$0] } ?? [])
        return TVDescription(identity: identity, capabilities: Vendor.androidTV.placeholderCapabilities)
    }
}
