import RHRCore

/// The detail pane's words about one writer, under its name (docs/design.md section 9): where its number comes from
/// (R11), what its maker documents it to be (R15), when it last delivered and how late after its day a value
/// usually comes, and its place in Health Connect's own app priority. Descriptive only: never which writer is right.
extension DetailView {
    /// "HealthKit estimate" only for Apple's own value; any other HealthKit writer wrote its number into HealthKit.
    static func provenance(_ writer: Writer, samples: ArraySlice<DaySample>, facts: WriterFacts?, glyphs g: Glyphs) -> String {
        switch writer.store {
        case .healthKit:
            let devices = samples.map(\.sample.device)
            if DerivationRegistry.isApple(writer, device: devices.first { $0 != nil } ?? nil,
                                          isAppleWatch: facts?.isAppleWatch ?? false) {
                return "HealthKit estimate"
            }
            return g.text(writer.provenance())
        case .healthConnect:
            return "written by \(g.shortName(writer)) (Health Connect)"
        }
    }

    /// The day's derivation (its samples' devices: a Withings scale's reading is a spot check), then the writer's
    /// lateness and Health Connect's place for it, each wrapped under the writer's name.
    static func facts(_ writer: Writer, samples: ArraySlice<DaySample>, facts: WriterFacts?, lateness: WriterLateness,
                      priority: AppPriority?,
                      thisYear: Int, width: Int, glyphs g: Glyphs) -> [StyledLine] {
        let derivation = Derivation.of(writer: writer, devices: samples.map(\.sample.device),
                                       isAppleWatch: facts?.isAppleWatch ?? false)
        var paragraphs = [derivationWords(derivation)]
        if let last = lateness.lastDeliveredWords(thisYear: thisYear),
           let lag = lateness.lagWords {
            paragraphs.append("\(last); \(lag)")
        }
        if let place = priority?.words(for: writer) { paragraphs.append(place) }
        // A measure of its own, so the words never widen the pane, which is as wide as its widest line (`width`).
        let measure = min(width, measureLimit) - 7
        return paragraphs.flatMap { text in
            TextFit.wrap(g.text(text), max(1, measure), ellipsis: g.ellipsis).enumerated().map { i, line in
                StyledLine((i == 0 ? "     " : "       ") + line, .muted)
            }
        }
    }

    /// The widest the paragraphs above are wrapped to, their indent included.
    static let measureLimit = 64

    /// "as Apple documents it: window: the whole day · statistic: an estimate · appears: not documented by Apple · revised: may be replaced
    /// while its day is today or yesterday · source: Apple Developer Documentation, “restingHeartRate”" (the first
    /// page; the derivations page, `d`, names them all); a writer whose maker documents nothing gets its summary.
    static func derivationWords(_ d: Derivation) -> String {
        let source = d.sources.first.map { "source: \($0.text)" }
        guard d.isDocumented else { return ([d.summary] + [source].compactMap { $0 }).joined(separator: " · ") }
        let fields = d.lines.filter { $0.label != "source" }.map { "\($0.label): \($0.words)" }
        return "as \(d.maker) documents it: " + (fields + [source].compactMap { $0 }).joined(separator: " · ")
    }
}
