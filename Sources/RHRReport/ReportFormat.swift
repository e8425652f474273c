// What a report is written as: PDF, SVG or PNG by the output's extension, on A4 or Letter.
import RHRCore

/// The file a report is written as, from the output path's extension (`rhr report --output FILE`).
public enum ReportFormat: String, Sendable, CaseIterable {
    case pdf, svg, png

    /// The format `path`'s extension names (any case), nil for any other.
    public init?(path: String) {
        let name = PathText.lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        self.init(rawValue: name[name.index(after: dot)...].lowercased())
    }

    /// "--output must end in .pdf, .svg or .png".
    public static let extensionsWords = "." + allCases.map(\.rawValue).dropLast().joined(separator: ", .")
        + " or ." + allCases.last!.rawValue
}

/// The paper a page is laid out on, in points (1/72 inch), portrait.
public enum PageSize: String, Sendable, CaseIterable {
    case a4, letter

    /// A4 is 210 × 297 mm; Letter 8.5 × 11 inches.
    var width: Double { self == .a4 ? 210 / 25.4 * 72 : 612 }
    var height: Double { self == .a4 ? 297 / 25.4 * 72 : 792 }

    /// "a4|letter", for the usage line.
    public static let choices = allCases.map(\.rawValue).joined(separator: "|")
}
