/// The state file is not what the bridge writes (the store then moves it aside): why, in a few words.
struct StateFileError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
