/// This installation's id: random, made once, kept in the state file (`installationId`), and
/// handed to every driver (`TVSecrets.installationID`) for protocols that want a stable client id.
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

    /// An id as `ensureInstallationID` makes them (hex, 16 to 64 digits); anything else in the
    /// file is ignored, and a new one is made.
    static func validInstallationID(_ text: String) -> String? {
        (16...64).contains(text.utf8.count)
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
            ? text : nil
    }
}
