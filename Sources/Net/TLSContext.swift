import COpenSSL
import CSystem

/// An OpenSSL `SSL_CTX`: trust settings, certificates. Creating one loads CA files, so make
/// it once per configuration and share it across connections.
public final class TLSContext: @unchecked Sendable {
    // An SSL_CTX is safe to share once configured (OpenSSL reference-counts and locks it).
    let context: OpaquePointer
    public let isServer: Bool
    let trust: TLSConfiguration.Trust

    private init(context: OpaquePointer, isServer: Bool, trust: TLSConfiguration.Trust) {
        self.context = context
        self.isServer = isServer
        self.trust = trust
    }

    /// A client context for `configuration`.
    public static func client(_ configuration: TLSConfiguration) throws(NetError) -> TLSContext {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw TLSContext.failure("create TLS context") }
        let tls = TLSContext(context: context, isServer: false, trust: configuration.trust)
        _ = csys_SSL_CTX_set_min_tls12(context)
        _ = csys_SSL_CTX_set_modes(context)
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
        return tls
    }

    /// A server context with a certificate and key given as PEM text (simulated TVs).
    public static func server(certificatePEM: String, privateKeyPEM: String) throws(NetError) -> TLSContext {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw failure("create TLS context") }
        let tls = TLSContext(context: context, isServer: true, trust: .none)
        _ = csys_SSL_CTX_set_min_tls12(context)
        _ = csys_SSL_CTX_set_modes(context)
        guard csys_ctx_use_pem(context, certificatePEM, privateKeyPEM) == 1 else {
            throw failure("load server certificate")
        }
        return tls
    }

    /// A fresh self-signed certificate and key as PEM text.
    /// - Parameter subjectAltNames: e.g. `"IP:127.0.0.1,DNS:localhost"`.
    public static func selfSignedCertificate(commonName: String, subjectAltNames: String? = nil) throws(NetError) -> (
        certificatePEM: String, privateKeyPEM: String
    ) {
        var certificate: UnsafeMutablePointer<CChar>?
        var key: UnsafeMutablePointer<CChar>?
        guard csys_self_signed_certificate(commonName, subjectAltNames, &certificate, &key) == 1,
            let certificate, let key
        else { throw failure("generate a certificate") }
        defer {
            free(certificate)
            free(key)
        }
        return (String(cString: certificate), String(cString: key))
    }

    deinit { SSL_CTX_free(context) }

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
