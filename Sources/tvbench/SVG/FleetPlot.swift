/// `fleet.svg`: the bridge's memory (peak and final RSS) and CPU (steady state, % of one core)
/// against the number of TVs, one point per fleet size this run measured (the median of its
/// runs), with the targets' lines for comparison.
enum FleetPlot {
    static let panelWidth = 430.0
    static let panelHeight = 300.0

    static func draw(_ points: [PlotSamples.FleetPoint]) -> String? {
        let sizes = Set(points.map(\.tvs)).sorted()
        guard !sizes.isEmpty else { return nil }
        func median(_ size: Int, _ value: (PlotSamples.FleetPoint) -> Double) -> Double {
            Statistics.median(points.filter { $0.tvs == size }.map(value)) ?? 0
        }
        let peak = sizes.map { (Double($0), median($0, \.peakRSSMB)) }
        let end = sizes.map { (Double($0), median($0, \.endRSSMB)) }
        let cpu = sizes.map { (Double($0), median($0, \.cpuPercent)) }
        var svg = SVGDocument(width: panelWidth * 2 + 40, height: panelHeight + 110)
        svg.text(
            "The bridge with N TVs (half Rokus, half Samsungs; SSDP; poll 10 s)", x: 20, y: 28, size: 16, bold: true)
        let maxTVs = Double(sizes.last ?? 1)
        let memoryTarget = [0.0, maxTVs].map { ($0, FleetTargets(size: Int($0)).rssMB) }
        let cpuTarget = [0.0, maxTVs].map { ($0, FleetTargets(size: Int($0)).cpuPercent) }
        panel(
            &svg, left: 20, title: "Memory, MB", series: [("highest", peak, false), ("at the end", end, true)],
            target: memoryTarget, maxTVs: maxTVs)
        panel(
            &svg, left: panelWidth + 30, title: "CPU, % of one core (steady state)",
            series: [("CPU", cpu, false)], target: cpuTarget, maxTVs: maxTVs)
        return svg.rendered()
    }

    /// One panel: axes from 0, a line with labelled points per series, the target dashed grey.
    private static func panel(
        _ svg: inout SVGDocument, left: Double, title: String,
        series: [(name: String, points: [(Double, Double)], dashed: Bool)], target: [(Double, Double)],
        maxTVs: Double
    ) {
        let plotLeft = left + 50
        let plotRight = left + panelWidth - 10
        let plotTop = 70.0
        let plotBottom = plotTop + panelHeight - 60
        let highest = (series.flatMap { $0.points.map(\.1) } + target.map(\.1)).max() ?? 1
        let yTicks = axisTicks(upTo: highest)
        let xTicks = axisTicks(upTo: maxTVs)
        let yMax = yTicks.last ?? 1
        let xMax = xTicks.last ?? 1
        func x(_ value: Double) -> Double { plotLeft + value / xMax * (plotRight - plotLeft) }
        func y(_ value: Double) -> Double { plotBottom - value / yMax * (plotBottom - plotTop) }
        svg.text(title, x: left + 10, y: 56, size: 13, bold: true)
        for tick in yTicks {
            svg.line(plotLeft, y(tick), plotRight, y(tick), stroke: "#eee")
            svg.text(Report.format(tick), x: plotLeft - 6, y: y(tick) + 4, anchor: .end, size: 11)
        }
        for tick in xTicks {
            svg.line(x(tick), plotBottom, x(tick), plotBottom + 5, stroke: "#333")
            svg.text(Report.format(tick), x: x(tick), y: plotBottom + 18, anchor: .middle, size: 11)
        }
        svg.line(plotLeft, plotTop, plotLeft, plotBottom, stroke: "#333")
        svg.line(plotLeft, plotBottom, plotRight, plotBottom, stroke: "#333")
        svg.text("TVs", x: plotRight, y: plotBottom + 34, anchor: .end, size: 11)
        svg.polyline(target.map { (x($0.0), y($0.1)) }, stroke: "#bbb", dashed: true)
        let legendY = plotBottom + 52
        svg.line(plotLeft, legendY - 4, plotLeft + 24, legendY - 4, stroke: "#bbb", width: 2)
        svg.text("target", x: plotLeft + 30, y: legendY, size: 11)
        for (index, line) in series.enumerated() {
            let color = index == 0 ? "#1f77b4" : "#6fa8dc"
            svg.polyline(line.points.map { (x($0.0), y($0.1)) }, stroke: color, dashed: line.dashed)
            for point in line.points {
                svg.circle(x: x(point.0), y: y(point.1), radius: 3.5, fill: color)
                // The last point's figure goes to its left, inside the panel.
                let last = point.0 == line.points.last?.0
                svg.text(
                    Report.format(point.1), x: x(point.0) + (last ? -6 : 6), y: y(point.1) - 6 + Double(index) * 18,
                    anchor: last ? .end : .start, size: 10, fill: color)
            }
            let legendX = plotLeft + 90 + Double(index) * 130
            svg.line(legendX, legendY - 4, legendX + 24, legendY - 4, stroke: color, width: 2)
            svg.text(line.name, x: legendX + 30, y: legendY, size: 11)
        }
    }
}
