/// A section's options: which option sets which of its properties, and how its value reads. Options a section does
/// not name (other sections') are passed over, so `scripts/bench` can hand every section the same ones.
///
///     init(_ arguments: [String]) throws {
///         try BenchArguments.read(arguments, into: &self, ["--years": .count(\.years), "--keep": .flag(\.keep)])
///     }
enum BenchArguments {
    enum Option<Root> {
        /// A whole number, 1 or more.
        case count(WritableKeyPath<Root, Int>)
        /// The same, as a seed.
        case seed(WritableKeyPath<Root, UInt64>)
        /// A number of seconds, more than 0.
        case seconds(WritableKeyPath<Root, Double>)
        /// Any word.
        case value(WritableKeyPath<Root, String>)
        case optionalValue(WritableKeyPath<Root, String?>)
        /// No value: present is true.
        case flag(WritableKeyPath<Root, Bool>)
    }

    static func read<Root>(_ arguments: [String], into root: inout Root, _ options: [String: Option<Root>]) throws {
        var i = 0
        while i < arguments.count {
            let name = arguments[i]
            i += 1
            guard let option = options[name] else { continue }
            func value() throws -> String {
                guard i < arguments.count else { throw DashboardBench.BenchError("\(name) needs a value") }
                i += 1
                return arguments[i - 1]
            }
            func count() throws -> Int {
                guard i < arguments.count, let n = Int(arguments[i]), n > 0 else {
                    throw DashboardBench.BenchError("\(name) takes a count")
                }
                i += 1
                return n
            }
            switch option {
            case .count(let path): root[keyPath: path] = try count()
            case .seed(let path): root[keyPath: path] = UInt64(try count())
            case .seconds(let path):
                guard i < arguments.count, let n = Double(arguments[i]), n > 0 else {
                    throw DashboardBench.BenchError("\(name) takes a number of seconds")
                }
                i += 1
                root[keyPath: path] = n
            case .value(let path): root[keyPath: path] = try value()
            case .optionalValue(let path): root[keyPath: path] = try value()
            case .flag(let path): root[keyPath: path] = true
            }
        }
    }
}
