import Glibc

/// `command-latency.svg`: the distribution of every client's and transport's latency in this
/// run, as horizontal box plots grouped by task, tv2mqtt beside the Python peers and the
/// raw-socket floor under both. The axis is logarithmic: the floor's tens of microseconds and a
/// busy machine's tail of milliseconds both stay readable.
enum LatencyPlot {
    static let width = 1010.0
    static let labelWidth = 270.0
    static let plotRight = 790.0
    static let rowHeight = 26.0
    static let groupHeight = 30.0

    static func draw(_ series: [PlotSamples.LatencySeries], runs: Int) -> String? {
        let boxes = series.compactMap(Box.init)
        guard !boxes.isEmpty else { return nil }
        let groups = boxes.reduce(into: [String]()) { if !$0.contains($1.group) { $0.append($1.group) } }
        let top = 70.0
        let bottom = top + Double(groups.count) * groupHeight + Double(boxes.count) * rowHeight + 10
        var svg = SVGDocument(width: width, height: bottom + 50)
        svg.text("Command latency, ms (this run: \(runs) run(s) per scenario)", x: 20, y: 28, size: 16, bold: true)
        svg.text(
            "log scale · box: p25–p75 · bar: median · whiskers: p5–p95 · dot: p99; "
                + "blue tv2mqtt, orange the Python peer, grey the raw-socket floor",
            x: 20, y: 48, size: 11, fill: "#555")
        let axis = LogAxis(low: boxes.map(\.p5).min() ?? 0.01, high: boxes.map(\.p99).max() ?? 1)
        func x(_ value: Double) -> Double { labelWidth + axis.fraction(value) * (plotRight - labelWidth) }
        // The grid first, so that the rows and the group titles are drawn over it.
        for tick in axis.ticks {
            svg.line(x(tick), top + 10, x(tick), bottom, stroke: "#eee")
            svg.line(x(tick), bottom, x(tick), bottom + 5, stroke: "#333")
            svg.text(Report.format(tick), x: x(tick), y: bottom + 18, anchor: .middle, size: 11)
        }
        svg.line(labelWidth, top + 10, labelWidth, bottom, stroke: "#999")
        svg.line(labelWidth, bottom, plotRight, bottom, stroke: "#333")
        svg.text("ms", x: plotRight, y: bottom + 34, anchor: .end, size: 11)
        var y = top
        for group in groups {
            svg.rect(x: 10, y: y + 8, width: width - 20, height: 18, fill: "#fff")
            svg.text(group, x: 20, y: y + 22, size: 12, bold: true)
            y += groupHeight
            for box in boxes where box.group == group {
                drawRow(box, middle: y + rowHeight / 2, x: x, into: &svg)
                y += rowHeight
            }
        }
        return svg.rendered()
    }

    /// One box: whiskers p5–p95, the box p25–p75, the median's bar, the p99 dot, and the figures.
    private static func drawRow(_ box: Box, middle: Double, x: (Double) -> Double, into svg: inout SVGDocument) {
        svg.text(box.label, x: 30, y: middle + 4, size: 12)
        svg.line(x(box.p5), middle, x(box.p95), middle, stroke: "#555")
        svg.line(x(box.p5), middle - 5, x(box.p5), middle + 5, stroke: "#555")
        svg.line(x(box.p95), middle - 5, x(box.p95), middle + 5, stroke: "#555")
        svg.rect(
            x: x(box.p25), y: middle - 8, width: max(x(box.p75) - x(box.p25), 1), height: 16, fill: box.color,
            stroke: "#333")
        svg.line(x(box.p50), middle - 9, x(box.p50), middle + 9, stroke: "#000", width: 2)
        svg.circle(x: x(box.p99), y: middle, radius: 3, fill: "#333")
        svg.text(
            "p50 \(Report.format(box.p50)) · p99 \(Report.format(box.p99)) · n \(box.count)", x: plotRight + 12,
            y: middle + 4, size: 11, fill: "#333")
    }

    /// The percentiles one box shows.
    struct Box {
        let group: String
        let label: String
        let count: Int
        let p5, p25, p50, p75, p95, p99: Double

        init?(_ series: PlotSamples.LatencySeries) {
            let samples = series.samples.filter(\.isFinite)
            guard let p50 = Statistics.percentile(samples, 50) else { return nil }
            func at(_ p: Double) -> Double { Statistics.percentile(samples, p) ?? p50 }
            group = series.group
            label = series.label
            count = samples.count
            (p5, p25, self.p50, p75, p95, p99) = (at(5), at(25), p50, at(75), at(95), at(99))
        }

        var color: String {
            if label.hasPrefix("tv2mqtt") { return "#6fa8dc" }
            if label.hasPrefix("raw socket") { return "#cccccc" }
            return "#f6b26b"
        }
    }
}

/// A base-10 logarithmic axis over whole decades, with ticks at 1, 2 and 5 of each.
struct LogAxis {
    let lowExponent: Double
    let highExponent: Double

    init(low: Double, high: Double) {
        let low = max(low, 0.001)
        lowExponent = log10(low).rounded(.down)
        highExponent = max(log10(max(high, low)).rounded(.up), lowExponent + 1)
    }

    /// Where `value` lies on the axis, 0…1 (clamped).
    func fraction(_ value: Double) -> Double {
        let exponent = log10(max(value, 0.000_001))
        return min(max((exponent - lowExponent) / (highExponent - lowExponent), 0), 1)
    }

    var ticks: [Double] {
        var ticks: [Double] = []
        var exponent = lowExponent
        while exponent < highExponent {
            let decade = pow(10, exponent)
            ticks += [decade, 2 * decade, 5 * decade]
            exponent += 1
        }
        return ticks + [pow(10, highExponent)]
    }
}
