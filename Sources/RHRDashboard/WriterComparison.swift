import RHRCore

/// How far apart two writers read: over the days on which both have a value, the mean of the daily
/// differences (first minus second) and their spread (standard deviation). Only pairs with at least 14 such
/// days are compared. Descriptive only (R11): neither writer is taken as the right one.
struct WriterComparison: Equatable {
    static let minimumSharedDays = 14

    /// Writer indexes, `first` < `second`.
    var first, second: Int
    var sharedDays: Int
    var meanDifference: Double
    /// The sample standard deviation of the daily differences.
    var spread: Double
    /// The first and the last shared day.
    var days: ClosedRange<LocalDay>

    /// The days two writers' values (each sorted by day) share, each as its difference, first minus second.
    struct Walk {
        var differences: [Double] = []
        var firstDay: LocalDay?
        var lastDay: LocalDay?

        init(_ a: [DayValue], _ b: [DayValue]) {
            var i = 0, j = 0
            while i < a.count && j < b.count {
                if a[i].day < b[j].day { i += 1; continue }
                if b[j].day < a[i].day { j += 1; continue }
                if let x = ChartedValue.bpm(a[i]), let y = ChartedValue.bpm(b[j]) {
                    differences.append(x - y)
                    if firstDay == nil { firstDay = a[i].day }
                    lastDay = a[i].day
                }
                i += 1
                j += 1
            }
        }
    }

    /// The shared days of two writers' values (each sorted by day), or nil when they have fewer than
    /// `minimum` (or none).
    static func compare(_ a: [DayValue], _ b: [DayValue], first: Int, second: Int,
                        minimum: Int = minimumSharedDays) -> WriterComparison? {
        WriterComparison(Walk(a, b), first: first, second: second, minimum: minimum)
    }

    /// Shared days of two writers, counted whatever their number (for saying why a pair is not compared).
    static func sharedDays(_ a: [DayValue], _ b: [DayValue]) -> Int { Walk(a, b).differences.count }
}

extension WriterComparison {
    /// The comparison of a walk's shared days, or nil when there are fewer than `minimum` (or none).
    init?(_ walk: Walk, first: Int, second: Int, minimum: Int = minimumSharedDays) {
        let differences = walk.differences
        guard differences.count >= max(2, minimum), let firstDay = walk.firstDay, let lastDay = walk.lastDay else {
            return nil
        }
        let n = Double(differences.count)
        let mean = differences.reduce(0, +) / n
        let variance = differences.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
        self.init(first: first, second: second, sharedDays: differences.count, meanDifference: mean,
                  spread: variance.squareRoot(), days: firstDay...lastDay)
    }
}
