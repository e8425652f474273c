/// The file a delivery came in, where it came in one (`rhr import`, the folder watch): its name, and when it was made.
/// R12: of two snapshots of one road read at the same instant (Health Auto Export files carry no export time), the one
/// made later decides; the history names both files.
public struct DeliveredFile: Sendable, Hashable {
    /// The file's name, without its directories (a zip's, for a member of it).
    public var name: String
    /// When it was made: the zip member's time, else the file's modification time; nil where neither is known (a
    /// pipe). R13 holds it to the machine's clock (`SyncBatch.datedByReceipt`).
    public var madeAt: Timestamp?

    public init(name: String, madeAt: Timestamp?) { (self.name, self.madeAt) = (name, madeAt) }
}
