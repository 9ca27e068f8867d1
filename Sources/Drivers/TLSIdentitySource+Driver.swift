import Net

extension TLSIdentitySource {
    /// The bridge's certificate, or why a driver cannot present one (the file in the state
    /// directory is unreadable, or the directory is not writable).
    func forDriver() async throws(DriverError) -> TLSIdentity {
        do {
            return try await identity()
        } catch {
            throw DriverError(.unreachable, "cannot use the bridge's client certificate: \(error)")
        }
    }
}
