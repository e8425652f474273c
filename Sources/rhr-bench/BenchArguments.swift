/// A section's options, read front to back: `--name value` and flags. A section passes over the options it does not
/// know (other sections'), so `scripts/bench` can hand every section the same ones.
///
///     var words = BenchArguments(arguments)
///     while let word = words.next() {
///         switch word {
///         case "--years": years = try words.count()
///         default: break   // other sections' options
///         }
///     }
struct BenchArguments {
    private let words: [String]
    private var index = -1
    /// The last word `next()` gave: the option whose value is read.
    private var option = ""

    init(_ words: [String]) { self.words = words }

    /// The next word; nil after the last.
    mutating func next() -> String? {
        index += 1
        guard index < words.count else { return nil }
        option = words[index]
        return option
    }

    /// The value of the option just read.
    mutating func value() throws -> String {
        guard let value = take() else { throw DashboardBench.BenchError("\(option) needs a value") }
        return value
    }

    /// The value of the option just read, a count (1 or more).
    mutating func count() throws -> Int {
        guard let n = take().flatMap({ Int($0) }), n > 0 else { throw DashboardBench.BenchError("\(option) takes a count") }
        return n
    }

    /// The value of the option just read, a number of seconds (more than 0).
    mutating func seconds() throws -> Double {
        guard let n = take().flatMap({ Double($0) }), n > 0 else {
            throw DashboardBench.BenchError("\(option) takes a number of seconds")
        }
        return n
    }

    private mutating func take() -> String? {
        guard index + 1 < words.count else { return nil }
        index += 1
        return words[index]
    }
}
