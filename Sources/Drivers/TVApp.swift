/// An app installed on a TV: the id its driver launches it by, and its name.
public struct TVApp: Equatable, Sendable, Codable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
