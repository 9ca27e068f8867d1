import Support

/// Percentiles and medians over samples, the way the targets are stated.
enum Statistics {
    /// The `p`-th percentile (0…100) by the nearest-rank method: a value that was actually
    /// measured, so a p99 of 200 samples is the second worst, not an interpolation.
    static func percentile(_ samples: [Double], _ p: Double) -> Double? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The median of several runs' results (the middle one; the mean of the two middle ones).
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double { fractionalMilliseconds / 1000 }
}
