/// A plain SVG document written as text: rectangles, lines, polylines, circles and text, with
/// every text escaped, so a browser shows it and an XML parser reads it.
struct SVGDocument {
    let width: Double
    let height: Double
    private var elements: [String] = []

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: String, stroke: String = "none") {
        elements.append(
            "<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(width))\" "
                + "height=\"\(Self.number(height))\" fill=\"\(fill)\" stroke=\"\(stroke)\"/>")
    }

    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Double = 1) {
        elements.append(
            "<line x1=\"\(Self.number(x1))\" y1=\"\(Self.number(y1))\" x2=\"\(Self.number(x2))\" "
                + "y2=\"\(Self.number(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(Self.number(width))\"/>")
    }

    mutating func polyline(_ points: [(x: Double, y: Double)], stroke: String, dashed: Bool = false) {
        let list = points.map { "\(Self.number($0.x)),\(Self.number($0.y))" }.joined(separator: " ")
        let dash = dashed ? " stroke-dasharray=\"5,4\"" : ""
        elements.append("<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"2\"\(dash)/>")
    }

    mutating func circle(x: Double, y: Double, radius: Double, fill: String) {
        elements.append(
            "<circle cx=\"\(Self.number(x))\" cy=\"\(Self.number(y))\" r=\"\(Self.number(radius))\" fill=\"\(fill)\"/>")
    }

    enum Anchor: String {
        case start, middle, end
    }

    mutating func text(
        _ text: String, x: Double, y: Double, anchor: Anchor = .start, size: Double = 12, bold: Bool = false,
        fill: String = "#222"
    ) {
        let weight = bold ? " font-weight=\"bold\"" : ""
        elements.append(
            "<text x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" text-anchor=\"\(anchor.rawValue)\" "
                + "font-size=\"\(Self.number(size))\"\(weight) fill=\"\(fill)\">\(Self.escaped(text))</text>")
    }

    /// The whole document, with a white background and a sans-serif font.
    func rendered() -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.number(width))" height="\(Self.number(height))" \
        viewBox="0 0 \(Self.number(width)) \(Self.number(height))" font-family="sans-serif">
        <rect x="0" y="0" width="\(Self.number(width))" height="\(Self.number(height))" fill="#fff"/>
        \(elements.joined(separator: "\n"))
        </svg>

        """
    }

    /// A coordinate with at most one decimal: enough for a picture, short to read.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}

/// Round steps for an axis from 0 to `maximum`: about five ticks at 1, 2 or 5 × 10ⁿ.
func axisTicks(upTo maximum: Double) -> [Double] {
    guard maximum > 0, maximum.isFinite else { return [0, 1] }
    var step = 1.0
    while maximum / step > 6 { step *= 10 }
    while maximum / step < 2 { step /= 10 }
    for factor in [1.0, 2.0, 5.0, 10.0] where maximum / (step * factor) <= 6 {
        step *= factor
        break
    }
    var ticks: [Double] = []
    var value = 0.0
    while value < maximum + step * 0.999 {
        ticks.append(value)
        value += step
    }
    return ticks
}
