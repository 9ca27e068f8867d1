import COpenSSL
import CSystem
import Synchronization

/// An OpenSSL `SSL_CTX`: trust settings, certificates. Creating one loads CA files, so make
/// it once per configuration and share it across connections.
///
/// Client contexts are made once per trust mode and client certificate (`client`), and shared
/// by every connection with that configuration: a TV's pin is checked after the handshake
/// (`TLSConnection`), so TVs with different pins share one. Building one per connection cost
/// an `SSL_CTX_new` and its settings on the event loop each time.
public final class TLSContext: @unchecked Sendable {
    let handle: ContextHandle
    var context: OpaquePointer { handle.pointer }
    public let isServer: Bool
    let trust: TLSConfiguration.Trust

    /// Owns one `SSL_CTX` (an SSL_CTX is safe to share once configured: OpenSSL
    /// reference-counts and locks it).
    final class ContextHandle: @unchecked Sendable {
        let pointer: OpaquePointer
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
        deinit { SSL_CTX_free(pointer) }
    }

    private init(handle: ContextHandle, isServer: Bool, trust: TLSConfiguration.Trust) {
        self.handle = handle
        self.isServer = isServer
        self.trust = trust
    }

    /// The TLS 1.2 cipher suites a client offers: ephemeral elliptic-curve Diffie-Hellman
    /// only. A finite-field DHE suite lets the server choose the group, and a hostile one (an
    /// impostor of a TV, a fake TV added by request) can choose one so large that the key
    /// exchange holds the event loop, which every TV shares. TLS 1.3 suites are OpenSSL's.
    static let tls12Ciphers = "ECDHE+AESGCM:ECDHE+CHACHA20:ECDHE+AES:!aNULL:!eNULL"
    /// The key-exchange groups a client offers, for TLS 1.2 and 1.3: elliptic curves, none of
    /// the finite-field groups (`ffdhe8192`) a TLS 1.3 server could ask for instead.
    static let groups = "X25519:P-256:X448:P-384:P-521"

    /// The client contexts made so far, by configuration without its pin.
    private static let clientContexts = Mutex<[TLSConfiguration: ContextHandle]>([:])

    /// A client context for `configuration`: the shared one of its trust mode (pins aside)
    /// and client certificate, made at the first call.
    public static func client(_ configuration: TLSConfiguration) throws(NetError) -> TLSContext {
        var key = configuration
        if case .selfSigned = key.trust { key.trust = .selfSigned(pinned: nil) }
        let handle = try clientContexts.withLock { (made) throws(NetError) -> ContextHandle in
            if let handle = made[key] { return handle }
            let handle = try makeClient(key)
            made[key] = handle
            return handle
        }
        return TLSContext(handle: handle, isServer: false, trust: configuration.trust)
    }

    private static func makeClient(_ configuration: TLSConfiguration) throws(NetError) -> ContextHandle {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw TLSContext.failure("create TLS context") }
        let handle = ContextHandle(context)
        _ = csys_SSL_CTX_set_min_tls12(context)
        _ = csys_SSL_CTX_set_modes(context)
        guard SSL_CTX_set_cipher_list(context, tls12Ciphers) == 1, csys_SSL_CTX_set_groups(context, groups) == 1 else {
            throw failure("restrict the TLS key exchange to elliptic curves")
        }
        switch configuration.trust {
        case .systemDefault:
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
            guard SSL_CTX_set_default_verify_paths(context) == 1 else { throw failure("load the system CA store") }
        case .certificateAuthority(let file):
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
            guard SSL_CTX_load_verify_locations(context, file, nil) == 1 else {
                throw failure("load CA file \(file)")
            }
        case .selfSigned, .none:
            SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        }
        if let certificate = configuration.certificateFile {
            guard SSL_CTX_use_certificate_chain_file(context, certificate) == 1 else {
                throw failure("load client certificate \(certificate)")
            }
            let key = configuration.privateKeyFile ?? certificate
            guard SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) == 1 else {
                throw failure("load client key \(key)")
            }
        }
        if let identity = configuration.identity,
            csys_ctx_use_pem(context, identity.certificatePEM, identity.privateKeyPEM) != 1
        {
            throw failure("load the client certificate")
        }
        return handle
    }

    /// A server context with a certificate and key given as PEM text (simulated TVs). With
    /// `requestClientCertificate`, it asks the client for one and accepts any (the connection's
    /// `peerRSAPublicKey` and fingerprint tell who it was).
    public static func server(
        certificatePEM: String, privateKeyPEM: String, requestClientCertificate: Bool = false
    ) throws(NetError) -> TLSContext {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw failure("create TLS context") }
        let tls = TLSContext(handle: ContextHandle(context), isServer: true, trust: .none)
        _ = csys_SSL_CTX_set_min_tls12(context)
        _ = csys_SSL_CTX_set_modes(context)
        guard csys_ctx_use_pem(context, certificatePEM, privateKeyPEM) == 1 else {
            throw failure("load server certificate")
        }
        if requestClientCertificate { csys_SSL_CTX_request_client_certificate(context) }
        return tls
    }

    /// A fresh self-signed certificate and key as PEM text: EC P-256, or RSA of `rsaBits`.
    /// - Parameter subjectAltNames: e.g. `"IP:127.0.0.1,DNS:localhost"`.
    public static func selfSignedCertificate(
        commonName: String, subjectAltNames: String? = nil, rsaBits: Int? = nil
    ) throws(NetError) -> (certificatePEM: String, privateKeyPEM: String) {
        var certificate: UnsafeMutablePointer<CChar>?
        var key: UnsafeMutablePointer<CChar>?
        guard csys_self_signed_certificate(commonName, subjectAltNames, Int32(rsaBits ?? 0), &certificate, &key) == 1,
            let certificate, let key
        else { throw failure("generate a certificate") }
        defer {
            free(certificate)
            free(key)
        }
        return (String(cString: certificate), String(cString: key))
    }

    static func failure(_ operation: String) -> NetError {
        NetError(.tls, operation, lastOpenSSLError())
    }
}

/// The oldest queued OpenSSL error as text (and the queue cleared).
func lastOpenSSLError() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    csys_ssl_error_string(&buffer, buffer.count)
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return text.isEmpty ? "TLS error" : text
}
