import Net

extension SamsungDriver {
    /// With a pinned certificate: the device at `host` presents it on the TLS port (fails
    /// closed: no answer, no certificate or another one is not this TV). Without a pin there
    /// is nothing to prove beyond the DUID the REST API reports.
    public func provesIdentity(at host: String) async -> Bool {
        guard let pin = await channel.pinnedCertificate else { return true }
        return await channel.presentsPin(pin, host: host)
    }
}
