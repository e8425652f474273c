/// Health Connect's own app priority for vitals (docs/design.md section 9): the order a person set on the phone for the
/// apps that write the category resting heart rate and heart rate belong to, as the newest export that kept it gave
/// it. rhr shows which writer Health Connect ranks first beside the others and never merges by it (R1): every writer
/// keeps its own series. Descriptive (R11): the phone's order, not rhr's judgement.
public struct AppPriority: Sendable, Hashable {
    /// `HealthDataCategory.VITALS` in AOSP's HealthConnect: resting heart rate and heart rate.
    public static let vitalsCategory = 6

    /// Package names (Health Connect writer names), first ranked first.
    public var packages: [String]

    public init(packages: [String]) {
        self.packages = packages
    }

    /// The priority of the Health Connect stream read most recently that holds one (an export's).
    public static func newest(in streams: [StreamState]) -> AppPriority? {
        streams.filter { $0.store == .healthConnect && $0.appPriority != nil }
            .max { ($0.asOf?.epochSeconds ?? -.infinity) < ($1.asOf?.epochSeconds ?? -.infinity) }?.appPriority
    }

    /// The writer's place, 1 for the first; nil for a HealthKit writer or a package not listed.
    public func rank(of writer: Writer) -> Int? {
        guard writer.store == .healthConnect, let i = packages.firstIndex(of: writer.name) else { return nil }
        return i + 1
    }

    /// "first of 3 in Health Connect's own priority for vitals", "not in Health Connect's own priority for vitals"; nil
    /// for a HealthKit writer.
    public func words(for writer: Writer) -> String? {
        guard writer.store == .healthConnect else { return nil }
        guard let rank = rank(of: writer) else { return "not in \(AppPriority.name)" }
        return "\(Wording.ordinal(rank)) of \(packages.count) in \(AppPriority.name)"
    }

    /// "Health Connect's own priority for vitals (set on the phone): 1 Fitbit, 2 Oura; rhr shows each writer apart.",
    /// each package named by `name` (its app's name where known).
    public func listWords(name: (String) -> String) -> String {
        "\(AppPriority.name.prefix(1).uppercased() + AppPriority.name.dropFirst()) (set on the phone): "
            + packages.enumerated().map { "\($0.offset + 1) \(name($0.element))" }.joined(separator: ", ")
            + "; rhr shows each writer apart."
    }

    static let name = "Health Connect’s own priority for vitals"
}
