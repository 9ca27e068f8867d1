/// Columns aligned with spaces, for the tables the commands print (`discover`, the TV list of
/// a `send` or `pair` that must be told which TV).
enum TextTable {
    static func lines(_ rows: [[String]], indent: String = "") -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in
            rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        return rows.map { row in
            let cells = zip(row, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }
            return indent + String(cells.joined(separator: "  ").reversed().drop { $0 == " " }.reversed())
        }
    }
}
