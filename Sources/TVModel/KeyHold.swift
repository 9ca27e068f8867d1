/// Held keys (SPEC §10): `{"key":"Right","hold_ms":800}` presses the key, holds it and
/// releases it (Roku `keydown`/`keyup`, Samsung `Press`/`Release`), and the release is tried
/// whatever happens in between.
extension TVCommand {
    /// How long one message may hold a key, in milliseconds. Ten seconds covers a long
    /// fast-forward; a key held longer is more likely a stuck automation than a wish.
    public static let holdRange = 1...10_000
}
