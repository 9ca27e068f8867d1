import Drivers

extension TVSecrets {
    /// What the state file remembers for `tv` (nil: a TV not in it) and this installation's id,
    /// for its driver.
    public init(_ tv: PersistedTV?, installationID: String?) {
        self.init(token: tv?.token, certificatePin: tv?.certificatePin, installationID: installationID)
    }
}

extension PersistedState {
    /// Makes this installation's id when the file has none; true when it was made now (the
    /// caller saves it, so the id stays the same from then on).
    public mutating func ensureInstallationID() -> Bool {
        guard installationID == nil else { return false }
        var generator = SystemRandomNumberGenerator()
        installationID = (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
        return true
    }
}
