import Drivers

extension TVSecrets {
    /// What the state file remembers for `tv` (nil: a TV not in it) and this installation's id,
    /// for its driver.
    public init(_ tv: PersistedTV?, installationID: String?) {
        self.init(token: tv?.token, certificatePin: tv?.certificatePin, installationID: installationID)
    }
}
