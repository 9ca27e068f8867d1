import Wire

/// A `/sim/state` change as it is read: a JSON object of known fields only, with readers
/// whose refusals name the field. A vendor reads (validates) every field first and applies
/// after, so a bad field changes nothing.
struct SimStateChange {
    let fields: [String: JSONValue]

    /// - Parameter known: the vendor's field names; any other is refused.
    init(_ change: JSONValue, known: Set<String>) throws(SimulatorError) {
        guard let fields = change.objectValue else {
            throw SimulatorError("expected a JSON object, got \(change.typeName)")
        }
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            throw SimulatorError("unknown field '\(unknown)'")
        }
        self.fields = fields
    }

    func string(_ name: String) throws(SimulatorError) -> String? {
        guard let value = fields[name] else { return nil }
        guard let text = value.stringValue else { throw SimulatorError("'\(name)' must be a string") }
        return text
    }

    func bool(_ name: String) throws(SimulatorError) -> Bool? {
        guard let value = fields[name] else { return nil }
        guard let flag = value.boolValue else { throw SimulatorError("'\(name)' must be true or false") }
        return flag
    }

    func int(_ name: String, _ range: ClosedRange<Int>) throws(SimulatorError) -> Int? {
        guard let value = fields[name] else { return nil }
        guard case .integer(let number) = value, range.contains(Int(clamping: number)) else {
            throw SimulatorError("'\(name)' must be an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return Int(number)
    }

    /// One of `Choice`'s raw values; `saying` lists them for the refusal ("on, standby or off").
    func choice<Choice: RawRepresentable<String>>(_ name: String, _ saying: String) throws(SimulatorError)
        -> Choice?
    {
        guard let text = try string(name) else { return nil }
        guard let choice = Choice(rawValue: text) else {
            throw SimulatorError("'\(name)' must be \(saying), not '\(text)'")
        }
        return choice
    }
}
