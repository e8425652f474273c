/// R15: what a writer's resting heart rate is, in its maker's own words: the window it covers, the statistic, when
/// it appears and whether the maker revises it, with the pages that say so. Descriptive only (R11): a derivation
/// says what a number is, never which writer is right. The entries live in `DerivationRegistry`; the sources, with
/// the sentences quoted from them, in docs/derivations.md.
public struct Derivation: Sendable, Hashable, Identifiable {
    /// The time the value covers, as its maker describes it.
    public enum Window: Sendable, Hashable {
        /// Heart rate through the day.
        case wholeDay
        /// The night: a sleep period.
        case night
        /// A stage of sleep, in the maker's words ("the last period of slow-wave sleep").
        case sleepStage(String)
        /// The day, or the previous night: the maker describes both and does not say which one a written value is.
        case dayOrNight
        /// One short measurement, in the maker's words ("a few seconds standing on the scale").
        case moment(String)
        case notDocumented
    }

    /// What is computed over the window.
    public enum Statistic: Sendable, Hashable {
        /// An estimate the maker's system makes.
        case estimate
        /// The lowest average over N consecutive minutes.
        case lowestAverage(minutes: Int)
        /// The lowest single reading.
        case lowestReading
        case mean
        /// A single short measurement.
        case spotCheck
        case notDocumented
    }

    /// Whether the maker says it may change a value it wrote.
    public enum Revision: Sendable, Hashable {
        /// The maker may replace it; the words say when ("while its day is today or yesterday").
        case mayReplace(String)
        case notDocumented
    }

    /// A page the derivation rests on, named as the product cites it: publisher and exact title.
    public struct Citation: Sendable, Hashable {
        public let publisher: String
        public let title: String
        public let address: String

        /// `Apple Developer Documentation, “restingHeartRate”`.
        public var text: String { "\(publisher), “\(title)”" }
    }

    /// One labelled line of the detail pane: `window: the night`.
    public struct Line: Sendable, Hashable {
        public let label: String
        public let words: String
    }

    /// Stable and short: `apple-watch`, `oura`, `unknown-healthconnect`. Exports may carry it.
    public let id: String
    /// Whose value it is, for people: "Apple Watch", "Oura", "a Health Connect writer rhr has no entry for".
    public let writer: String
    /// Who would document it, for "not documented by …": "Apple", "Oura", "this writer".
    public let maker: String
    public let window: Window
    public let statistic: Statistic
    /// When the value appears, in the maker's words ("each morning when you wake up"); nil: the maker does not say.
    public let appears: String?
    public let revision: Revision
    /// One phrase for a legend or a comparison line: "lowest 10-minute night average".
    public let short: String
    /// One sentence in the maker's terms, for the detail pane and help.
    public let summary: String
    /// Further sentences, each saying whose word it is (the maker's, or a user's measurement).
    public let notes: [String]
    /// The pages it rests on; for a writer that documents nothing, the pages read that say nothing of it.
    public let sources: [Citation]
    /// A value several writers gave together: the derivation of each, in order.
    public let parts: [Derivation]

    public init(id: String, writer: String, maker: String, window: Window, statistic: Statistic, appears: String?,
                revision: Revision, short: String, summary: String, notes: [String] = [], sources: [Citation],
                parts: [Derivation] = []) {
        self.id = id
        self.writer = writer
        self.maker = maker
        self.window = window
        self.statistic = statistic
        self.appears = appears
        self.revision = revision
        self.short = short
        self.summary = summary
        self.notes = notes
        self.sources = sources
        self.parts = parts
    }

    /// Whether the maker documents what the number is (its window or its statistic).
    public var isDocumented: Bool { window != .notDocumented || statistic != .notDocumented }

    private var notDocumented: String { "not documented by \(maker)" }

    /// "the night", "the last period of slow-wave sleep", "not documented by Garmin".
    public var windowWords: String {
        switch window {
        case .wholeDay: return "the whole day"
        case .night: return "the night"
        case .sleepStage(let words), .moment(let words): return words
        case .dayOrNight: return "the day or the previous night (which one, \(notDocumented))"
        case .notDocumented: return notDocumented
        }
    }

    /// "the lowest 10-minute average", "an estimate", "not documented by Fitbit".
    public var statisticWords: String {
        switch statistic {
        case .estimate: return "an estimate"
        case .lowestAverage(let minutes): return "the lowest \(minutes)-minute average"
        case .lowestReading: return "the lowest reading"
        case .mean: return "a mean"
        case .spotCheck: return "a spot check"
        case .notDocumented: return notDocumented
        }
    }

    /// "each morning when you wake up", "not documented by Apple".
    public var appearsWords: String { appears ?? notDocumented }

    /// "may be replaced while its day is today or yesterday", "not documented by Oura".
    public var revisionWords: String {
        switch revision {
        case .mayReplace(let when): return "may be replaced \(when)"
        case .notDocumented: return notDocumented
        }
    }

    /// `Oura Help, “What Is Resting Heart Rate?”; Oura API Documentation, “Sleep Routes”`.
    public var sourceWords: String {
        sources.isEmpty ? "none" : sources.map(\.text).joined(separator: "; ")
    }

    /// The detail pane's lines: window, statistic, appears, revised, source.
    public var lines: [Line] {
        [Line(label: "window", words: windowWords), Line(label: "statistic", words: statisticWords),
         Line(label: "appears", words: appearsWords), Line(label: "revised", words: revisionWords),
         Line(label: "source", words: sourceWords)]
    }

    /// The longer sentence for the detail pane and help: the summary, when it appears, whether it is revised, the
    /// notes and the source. A writer that documents nothing gets its summary and source only.
    public var sentence: String {
        var parts = [summary]
        if isDocumented {
            parts.append(appears.map { "It appears \($0)." } ?? "When it appears is \(notDocumented).")
            switch revision {
            case .mayReplace(let when): parts.append("It may be replaced \(when).")
            case .notDocumented: parts.append("Whether it is revised is \(notDocumented).")
            }
        }
        parts += notes
        if !sources.isEmpty { parts.append("Source: \(sourceWords).") }
        return parts.joined(separator: " ")
    }

    /// "lowest 10-minute night average vs. all-day rest estimate": the line beside a pair's mean difference.
    public static func comparison(_ lhs: Derivation, _ rhs: Derivation) -> String {
        "\(lhs.short) vs. \(rhs.short)"
    }
}
