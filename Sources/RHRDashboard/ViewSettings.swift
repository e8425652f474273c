import RHRCore

/// How a person looks at a store: the aggregation, the zoom, the hidden writers and the trend aids. Kept per
/// store between runs (`ViewStateFile`), so the dashboard opens the way it was left.
public struct ViewSettings: Sendable, Hashable {
    public var aggregation: Aggregation
    public var zoom: Zoom
    /// Writers toggled off (1–9, or a click on the legend).
    public var hidden: Set<WriterKey>
    /// The 7-day rolling mean per writer.
    public var showMean: Bool
    /// The usual range (baseline band) of `bandWriter`.
    public var showBand: Bool
    /// Min–max whiskers at week and month zoom.
    public var showWhiskers: Bool
    /// The writer the band follows; nil: the visible writer with the most days.
    public var bandWriter: WriterKey?

    public init(aggregation: Aggregation = .latest, zoom: Zoom = .day, hidden: Set<WriterKey> = [],
                showMean: Bool = false, showBand: Bool = false, showWhiskers: Bool = false,
                bandWriter: WriterKey? = nil) {
        self.aggregation = aggregation
        self.zoom = zoom
        self.hidden = hidden
        self.showMean = showMean
        self.showBand = showBand
        self.showWhiskers = showWhiskers
        self.bandWriter = bandWriter
    }
}
