/// One road's copy of a resting sample, as the `sample` table holds it (docs/design.md R12): the row, its road
/// (`layer_id`), when that road delivered it (`as_of`) and whether it still stands in its road (`current`).
struct StoredCopy {
    var id: Int64
    var layer: Int64
    var asOf: Double
    var current: Bool
    var row: SampleRow
    /// When the file that brought a snapshot's copy was made, and its name (R12, `SnapshotTie`); nil for a live road's.
    var madeAt: Double?
    var madeIn: String?

    /// What a query selects for it, from `sample` (`prefix` "s." where the query joins).
    static func columns(prefix: String = "") -> String {
        ["id", "layer_id", "as_of", "current", "made_at", "made_in"].map { prefix + $0 }.joined(separator: ", ") + ", "
            + (prefix.isEmpty ? SampleRow.columns : SampleRow.qualifiedColumns)
    }

    /// Every road's copy of one identity.
    static let selectByIdentity = "SELECT \(columns()) FROM sample WHERE store = ? AND identity = ?"

    /// Where its columns are in one statement's result, found by name once per statement.
    struct Columns {
        let id: SQLColumn, layer: SQLColumn, asOf: SQLColumn, current: SQLColumn, madeAt: SQLColumn, madeIn: SQLColumn,
            row: SampleRow.Columns

        init(_ s: SQLiteStatement) throws(StoreError) {
            id = try s.column("id")
            layer = try s.column("layer_id")
            asOf = try s.column("as_of")
            current = try s.column("current")
            (madeAt, madeIn) = (try s.column("made_at"), try s.column("made_in"))
            row = try SampleRow.Columns(s)
        }
    }

    /// Reads the current row of a statement that selects `columns`.
    init(_ s: SQLiteStatement, _ c: Columns) {
        id = s.int(c.id)
        layer = s.int(c.layer)
        asOf = s.double(c.asOf)
        current = s.int(c.current) != 0
        madeAt = s.optionalDouble(c.madeAt)
        madeIn = s.optionalText(c.madeIn)
        row = SampleRow(s, c.row)
    }

    /// Its value in bpm when it may enter an aggregate (R6, R13): what can stand in for another copy.
    var validBPM: Double? { row.isValid(deliveredAt: asOf) ? row.bpm : nil }
}
