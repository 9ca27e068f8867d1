import Glibc
import Net

/// The bridge's own certificate toward TVs that pin their clients (an Android TV pairs with it):
/// made once, kept in the state directory as `client-identity.pem` (0600) and the same from then
/// on, so pairings survive restarts. Never logged.
extension StateStore {
    public static let identityFileName = "client-identity.pem"
    static let maxIdentityFileSize = 64 << 10

    /// Reads the identity in `directory` on first use, or makes and keeps one there.
    public static func clientIdentity(directory: String, commonName: String = "tv2mqtt") -> TLSIdentitySource {
        TLSIdentitySource { () throws(FileError) -> TLSIdentity in
            try keptIdentity(directory: directory, commonName: commonName)
        }
    }

    static func keptIdentity(directory: String, commonName: String) throws(FileError) -> TLSIdentity {
        guard let opened = try StateDirectory.open(directory, create: true) else {
            throw FileError(path: directory, operation: "open the state directory", code: ENOENT)
        }
        try opened.lock()  // two processes starting at once make one identity, not two
        let path = directory + "/" + identityFileName
        if let (bytes, _) = try opened.read(identityFileName, limit: maxIdentityFileSize) {
            guard let identity = TLSIdentity(combinedPEM: String(decoding: bytes, as: UTF8.self)) else {
                throw FileError(
                    path: path, operation: "read the bridge's client certificate", code: EINVAL,
                    reason:
                        "it is not a certificate and its key; move it aside to make a new one (every TV paired with it must then be paired again)"
                )
            }
            return identity
        }
        let identity: TLSIdentity
        do {
            identity = try TLSIdentity.generateRSA(commonName: commonName)
        } catch {
            throw FileError(
                path: path, operation: "make the bridge's client certificate", code: EIO, reason: "\(error)")
        }
        _ = try opened.writeAtomically(identityFileName, chunks: [Array(identity.combinedPEM.utf8)], mode: 0o600)
        return identity
    }
}
