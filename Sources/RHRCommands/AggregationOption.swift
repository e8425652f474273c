import RHRCore

/// `--aggregate latest|lowest|mean` (R7), for the commands that print one value per day.
enum AggregationOption {
    static let spec = OptionSpec.value("aggregate", "latest|lowest|mean",
                                       "how a day's samples become one value (default latest)")

    static func parse(_ args: ParsedArguments) throws(UsageError) -> Aggregation {
        guard let text = args.value("aggregate") else { return .latest }
        guard let aggregation = Aggregation(rawValue: text) else {
            throw UsageError("--aggregate must be latest, lowest or mean, not \(text)")
        }
        return aggregation
    }
}
