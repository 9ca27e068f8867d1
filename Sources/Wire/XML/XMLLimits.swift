/// Bounds on what `XMLReader` accepts, so that hostile input costs bounded time and memory.
///
/// Exceeding any of them throws `WireError` `.tooLarge`.
public struct XMLLimits: Equatable, Sendable {
    /// Largest document, in bytes (checked before anything is parsed).
    public var maxInputBytes: Int
    /// Deepest nesting of elements; the root is at depth 1.
    public var maxDepth: Int
    /// Most elements in the document.
    public var maxElements: Int
    /// Most attributes in the document, all elements together.
    public var maxAttributes: Int
    /// Most attributes on one element (bounds the duplicate-attribute check).
    public var maxAttributesPerElement: Int

    /// Limits with the defaults of `.default` unless given.
    public init(
        maxInputBytes: Int = 1 << 20, maxDepth: Int = 64, maxElements: Int = 20_000, maxAttributes: Int = 20_000,
        maxAttributesPerElement: Int = 64
    ) {
        self.maxInputBytes = maxInputBytes
        self.maxDepth = maxDepth
        self.maxElements = maxElements
        self.maxAttributes = maxAttributes
        self.maxAttributesPerElement = maxAttributesPerElement
    }

    /// 1 MiB, depth 64, 20,000 elements and attributes, 64 attributes per element: far
    /// above any TV response (a Roku device-info is about 3 KB and 80 elements).
    public static let `default` = XMLLimits()
}
