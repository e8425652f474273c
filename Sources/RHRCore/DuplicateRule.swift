/// R14: the same record delivered twice is one sample; one writer's records of one window with different values are
/// all kept. Real Apple exports hold duplicated `<Record>`s; a phone that re-sends its look-back window may put a
/// point in one request twice.
///
/// Among the resting samples of one delivery that share an identity (section 4): those of the same value (in bpm,
/// R12) are one, the one R7's tie-break takes last (`DaySeries.isEarlier`: the latest created or modified), then, for
/// a total order, the smallest by description; a Health Connect record id is one record, its latest version kept. When
/// different values remain, each is kept as a duplicate (`RestingSample.isDuplicate`), its identity carrying its value,
/// so R7 orders them by its own rule and the detail pane says so. Nothing depends on the order they came in.
public enum DuplicateRule {
    public static func folded(_ samples: [RestingSample]) -> [RestingSample] {
        var firstIndex: [String: Int] = [:]
        var repeated = false
        for (k, sample) in samples.enumerated() where firstIndex.updateValue(k, forKey: sample.identity.key) != nil {
            repeated = true
        }
        // Most deliveries hold each sample once: nothing to do.
        guard repeated else { return samples }
        var groups: [String: [RestingSample]] = [:]
        var order: [String] = []
        for sample in samples {
            let key = sample.identity.key
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(sample)
        }
        var result: [RestingSample] = []
        result.reserveCapacity(groups.count)
        for key in order.sorted() {
            let group = groups[key]!
            guard group.count > 1 else { result.append(group[0]); continue }
            if group[0].store == .healthConnect && group[0].uuid != nil {
                result.append(group.max(by: isBefore)!)
                continue
            }
            var byValue: [String: RestingSample] = [:]
            for sample in group {
                let value = valueKey(sample)
                if let kept = byValue[value], !isBefore(kept, sample) { continue }
                byValue[value] = sample
            }
            if byValue.count == 1 {
                result.append(byValue.values.first!)
            } else {
                for value in byValue.keys.sorted() {
                    var sample = byValue[value]!
                    sample.isDuplicate = true
                    result.append(sample)
                }
            }
        }
        return result
    }

    /// A sample's value as duplicates compare and name it: in bpm where the unit is a heart rate's, NaN as `nan`.
    public static func valueKey(_ sample: RestingSample) -> String {
        let v = sample.bpm ?? sample.value
        return v.isNaN ? "nan" : "\(v)"
    }

    /// Which of two copies of one sample is kept: R7's later, then the larger by description (a total order).
    private static func isBefore(_ a: RestingSample, _ b: RestingSample) -> Bool {
        if DaySeries.isEarlier(a, b) { return true }
        if DaySeries.isEarlier(b, a) { return false }
        return "\(a)" < "\(b)"
    }
}
