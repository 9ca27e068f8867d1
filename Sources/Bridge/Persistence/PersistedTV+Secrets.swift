import Drivers

extension PersistedTV {
    /// The secrets remembered for this TV, for its driver.
    public var secrets: TVSecrets { TVSecrets(token: token, certificatePin: certificatePin) }
}
