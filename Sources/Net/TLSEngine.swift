import COpenSSL
import CSystem
import Glibc

/// One TLS session as a transform: ciphertext from the network goes in (`feed`),
/// plaintext comes out (`readPlaintext`), plaintext goes in (`writePlaintext`) and
/// ciphertext to send comes out (`takeOutput`). No sockets: OpenSSL works on memory BIOs.
///
/// Not thread-safe by itself; `TLSConnection` serialises access with a lock.
///
/// OpenSSL's error queue is per thread, and tasks move between threads: every SSL call starts
/// from an empty queue (as `SSL_get_error` requires), so an error reported is this call's own.
final class TLSEngine: @unchecked Sendable {
    enum Step {
        case done
        case needInput
        case closed
        case failed(NetError.Kind, String)
    }

    private let ssl: OpaquePointer
    private let input: OpaquePointer  // BIO the network's bytes are written into
    private let output: OpaquePointer  // BIO OpenSSL's records are read out of

    init(context: TLSContext, serverName: String?) throws(NetError) {
        guard let ssl = SSL_new(context.context) else { throw TLSContext.failure("create TLS session") }
        var rbio: OpaquePointer?
        var wbio: OpaquePointer?
        guard csys_ssl_attach_memory_bios(ssl, &rbio, &wbio) == 1, let rbio, let wbio else {
            SSL_free(ssl)
            throw TLSContext.failure("create TLS buffers")
        }
        self.ssl = ssl
        self.input = rbio
        self.output = wbio
        if context.isServer {
            SSL_set_accept_state(ssl)
        } else {
            SSL_set_connect_state(ssl)
            try configureNameCheck(serverName, trust: context.trust)
        }
    }

    private func configureNameCheck(_ serverName: String?, trust: TLSConfiguration.Trust) throws(NetError) {
        guard let serverName, !serverName.isEmpty else { return }
        let isAddress = (try? SocketAddress(ip: serverName, port: 0)) != nil
        if !isAddress { _ = csys_SSL_set_sni(ssl, serverName) }  // SNI carries names only (RFC 6066 §3)
        switch trust {
        case .systemDefault, .certificateAuthority:
            let ok =
                isAddress
                ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), serverName)
                : SSL_set1_host(ssl, serverName)
            if ok != 1 { throw TLSContext.failure("set the expected host name \(serverName)") }
        case .selfSigned, .none:
            break
        }
    }

    deinit { SSL_free(ssl) }  // also frees both BIOs

    /// A server session that takes only these client certificates (SHA-256 fingerprints).
    func acceptOnlyClientCertificates(_ fingerprints: [[UInt8]]) throws(NetError) {
        let digests = fingerprints.filter { $0.count == 32 }.flatMap { $0 }
        guard csys_SSL_accept_only_client_certificates(ssl, digests, digests.count / 32) == 1 else {
            throw TLSContext.failure("set the accepted client certificates")
        }
    }

    /// Advances the handshake as far as the buffered input allows.
    func handshake() -> Step {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        return result == 1 ? .done : step(for: result)
    }

    /// Ciphertext received from the peer.
    func feed(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = BIO_write(input, $0.baseAddress, Int32($0.count)) }
    }

    /// Decrypted bytes, or why there are none yet.
    func readPlaintext(maxBytes: Int) -> ([UInt8], Step) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, min(maxBytes, 16 * 1024))) { scratch in
            ERR_clear_error()
            let count = SSL_read(ssl, scratch.baseAddress, Int32(scratch.count))
            if count > 0 { return (Array(scratch[0..<Int(count)]), .done) }
            return ([], step(for: count))
        }
    }

    /// Encrypts `bytes` into records (memory BIOs never block, so this completes).
    func writePlaintext(_ bytes: [UInt8]) -> Step {
        guard !bytes.isEmpty else { return .done }
        ERR_clear_error()
        let count = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        return count == Int32(bytes.count) ? .done : step(for: count)
    }

    /// Starts the close handshake (queues a close_notify alert).
    func shutdown() {
        _ = SSL_shutdown(ssl)
        // On a connection that failed or never finished its handshake SSL_shutdown queues an
        // error ("shutdown while in init") that nobody reads; left there, it would be reported
        // as the reason of the next TLS failure on this thread.
        ERR_clear_error()
    }

    /// Ciphertext OpenSSL produced and that must be sent, in order.
    func takeOutput() -> [UInt8] {
        let pending = Int(BIO_ctrl_pending(output))
        guard pending > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: pending) { buffer, initialized in
            initialized = Int(max(0, BIO_read(output, buffer.baseAddress, Int32(pending))))
        }
    }

    /// The peer certificate's RSA public key, once the handshake is done.
    func peerRSAPublicKey() -> RSAPublicKey? {
        RSAPublicKey.read { csys_peer_rsa_public_key(ssl, $0, $1, $2, $3) }
    }

    /// The peer certificate's subject names, once the handshake is done.
    func peerSubject() -> TLSPeerSubject {
        func entry(_ nid: Int32) -> String? {
            var buffer = [CChar](repeating: 0, count: 1024)
            guard csys_peer_subject_entry(ssl, nid, &buffer, buffer.count) >= 0 else { return nil }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return TLSPeerSubject(commonName: entry(NID_commonName), dnQualifier: entry(NID_dnQualifier))
    }

    /// SHA-256 of the peer's certificate, once the handshake is done.
    func peerCertificateSHA256() -> [UInt8]? {
        var digest = [UInt8](repeating: 0, count: 32)
        return csys_peer_certificate_sha256(ssl, &digest) == 1 ? digest : nil
    }

    private func step(for result: Int32) -> Step {
        let code = SSL_get_error(ssl, result)
        switch code {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            return .needInput
        case SSL_ERROR_ZERO_RETURN:
            return .closed
        default:
            // Before the verify result: a client that took a self-signed certificate keeps a
            // result other than OK, and the peer's refusal of our certificate is the news.
            if csys_ssl_peer_refused_certificate() == 1 {
                return .failed(.certificateRefused, "the peer refused our certificate: " + lastOpenSSLError())
            }
            let verify = SSL_get_verify_result(ssl)
            if verify != X509_V_OK {
                _ = lastOpenSSLError()
                return .failed(
                    .tls, "certificate verify failed: \(String(cString: X509_verify_cert_error_string(verify)))")
            }
            return .failed(.tls, lastOpenSSLError())
        }
    }
}
