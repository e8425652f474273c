/// The times in a text shown to people that are written without an offset (every time shown is local with
/// its offset, "12 Mar 21:00 +01:00"). A window's first time ("00:03–23:48 +01:00") is followed by its dash, not
/// an offset, and is not counted.
public func bareTimes(_ text: String) -> [String] {
    let withOffsets = text.replacing(/\d\d:\d\d [+-]\d\d:\d\d/, with: "T")
    return withOffsets.matches(of: /\d\d:\d\d(?!–)/).map { String(withOffsets[$0.range]) }
}
