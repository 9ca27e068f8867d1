import TVModel

/// The `input` select of a Samsung TV: names and the key sequence each one sends.
///
/// Tizen has no API that switches to, or tells, a source. What reaches every model year is
/// a remote key: `KEY_SOURCE` (opens the source menu) and `KEY_HDMI` (cycles through the HDMI
/// ports). `KEY_HDMI1`…`KEY_HDMI4` select a port directly on some sets and do nothing on many
/// newer ones (Home Assistant core issues 147250, 84912), so they are offered only where
/// the configuration says the TV obeys them (`samsung.inputs`, e.g.
/// `{"HDMI 1": ["KEY_HDMI1"], "Apple TV": ["KEY_SOURCE", "KEY_RIGHT", "KEY_ENTER"]}`).
public struct SamsungInputs: Equatable, Sendable {
    /// The options offered when `samsung.inputs` is not set: the keys every model year obeys.
    public static let defaults: [String: [String]] = ["HDMI": ["KEY_HDMI"], "Source": ["KEY_SOURCE"]]
    /// At most this many inputs, and keys per input (check-config says so).
    public static let maxInputs = 32
    public static let maxKeys = 16
    /// An input name's longest form (Home Assistant shows it as an option).
    public static let maxNameLength = 64
    /// The pause between the keys of a sequence: a menu needs a moment to open.
    public static let keyPause: Duration = .milliseconds(500)

    /// Name → keys.
    public let table: [String: [String]]

    public init(configured: [String: [String]] = [:]) {
        table = configured.isEmpty ? Self.defaults : configured
    }

    /// The select's options, in a stable order.
    public var names: [String] { table.keys.sorted() }

    /// The keys of the input named `name` (case-insensitive), as remote-channel steps.
    public func steps(for name: String) throws(CommandRejection) -> [SamsungRemoteStep] {
        let wanted = name.lowercased()
        guard let keys = table.first(where: { $0.key.lowercased() == wanted })?.value else {
            throw CommandRejection(
                "input \"\(name.prefix(64))\" is not one of \(names.joined(separator: ", ")); "
                    + "set samsung.inputs (name → keys) in the configuration for others")
        }
        var steps: [SamsungRemoteStep] = []
        for (index, key) in keys.enumerated() {
            if index > 0 { steps.append(.pause(Self.keyPause)) }
            steps.append(.message(.key(key, .click)))
        }
        return steps
    }

    /// Why a configured table cannot be used (check-config's message), or nil. Every key must
    /// be on the Samsung allowlist (`SamsungKeys`): KEY_POWER is refused here as everywhere.
    public static func problem(in table: [String: [String]]) -> String? {
        guard table.count <= maxInputs else { return "at most \(maxInputs) inputs" }
        for (name, keys) in table.sorted(by: { $0.key < $1.key }) {
            guard !name.isEmpty, name.count <= maxNameLength else {
                return "input names are 1 to \(maxNameLength) characters"
            }
            guard !keys.isEmpty, keys.count <= maxKeys else {
                return "\(name): expected 1 to \(maxKeys) keys such as [\"KEY_HDMI1\"]"
            }
            for key in keys {
                do {
                    switch try SamsungKeys.resolve(.vendor(key)) {
                    case .remote(let code) where code == key: continue
                    default: return "\(name): write \"\(key)\" as \(key.uppercased())"
                    }
                } catch {
                    return "\(name): \(error.message)"
                }
            }
        }
        return nil
    }
}
