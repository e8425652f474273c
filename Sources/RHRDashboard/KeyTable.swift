import RHRScreen

/// What a key does. The key table maps keys to these; `update` carries them out.
public enum DashboardAction: String, Sendable, Hashable, CaseIterable {
    case earlier, later
    case up, down
    case pageEarlier, pageLater
    case first, last, today
    case zoomIn, zoomOut
    case aggregation, context, toggleWriter
    case mean, band, bandWriter, whiskers, comparison, derivations
    case columnsLeft, columnsRight
    case focusNext, focusPrevious
    case goToDate, reload, report, help, close, quit
}

/// One row of the key table: the keys, what they do, how the help screen and the footer name them.
public struct KeyBinding: Sendable {
    public let keys: [Key]
    public let action: DashboardAction
    /// What the help screen says the keys do.
    public let help: String
    /// The footer's one-word hint, for the few keys that get one.
    public let hint: String?
    /// Overrides the label made from `keys` (the digits 1–9 are one row).
    let customLabel: String?
    /// The footer's key label when it differs from the first key ("←→" for a pair of rows).
    let footerKeys: String?
    let asciiFooterKeys: String?

    init(_ keys: [Key], _ action: DashboardAction, _ help: String, hint: String? = nil, label: String? = nil,
         footerKeys: String? = nil, asciiFooterKeys: String? = nil) {
        self.keys = keys
        self.action = action
        self.help = help
        self.hint = hint
        self.customLabel = label
        self.footerKeys = footerKeys
        self.asciiFooterKeys = asciiFooterKeys
    }

    /// The keys as the footer names them: "←→", "+-", "q".
    public func footerLabel(unicode: Bool) -> String {
        if let footerKeys { return unicode ? footerKeys : (asciiFooterKeys ?? Glyphs(unicode: false).text(footerKeys)) }
        guard let first = keys.first else { return "" }
        return unicode ? first.description : first.asciiDescription
    }

    /// "← h", "PgUp", "1–9"; in ASCII "Left h".
    public func label(unicode: Bool) -> String {
        if let customLabel { return unicode ? customLabel : customLabel.replacingOccurrences(of: "–", with: "-") }
        return keys.map { unicode ? $0.description : $0.asciiDescription }.joined(separator: " ")
    }
}

/// The one key table: `update` dispatches through it and the help screen and footer are generated from it,
/// so they cannot disagree.
public enum KeyTable {
    public static let bindings: [KeyBinding] = [
        KeyBinding([.left, .character("h")], .earlier, "earlier: one day (a week or a month at week and month zoom)", hint: "day",
                   footerKeys: "←→", asciiFooterKeys: "h l"),
        KeyBinding([.right, .character("l")], .later, "later: one day (a week or a month at week and month zoom)"),
        KeyBinding([.up, .character("k")], .up, "one day earlier; in the detail pane and help, scroll up"),
        KeyBinding([.down, .character("j")], .down, "one day later; in the detail pane and help, scroll down"),
        KeyBinding([.pageUp], .pageEarlier, "a screen earlier; in the detail pane and help, a page up"),
        KeyBinding([.pageDown], .pageLater, "a screen later; in the detail pane and help, a page down"),
        KeyBinding([.character("g"), .home], .first, "the first day with data"),
        KeyBinding([.character("G"), .end], .last, "the most recent day with data"),
        KeyBinding([.character("t")], .today, "today"),
        KeyBinding([.character("+"), .character("=")], .zoomIn, "zoom in: month → week → day", hint: "zoom",
                   footerKeys: "+-"),
        KeyBinding([.character("-"), .character("_")], .zoomOut, "zoom out: day → week → month"),
        KeyBinding([.character("a")], .aggregation, "one value per day: latest → lowest → mean", hint: "aggregation"),
        KeyBinding([.character("c")], .context, "show or hide the sedentary minimum (context, not resting)",
                   hint: "context"),
        KeyBinding((1...9).map { .character(Character(String($0))) }, .toggleWriter,
                   "show or hide writer 1–9 (numbers in the legend; a click on its entry does the same)",
                   hint: "writers", label: "1–9", footerKeys: "1–9"),
        KeyBinding([.character("m")], .mean, "7-day mean on or off: each writer's line becomes the mean of the 7 days "
                   + "ending on each day (when 4 of them have a value); the daily values stay as dots", hint: "mean"),
        KeyBinding([.character("b")], .band, "usual range on or off: behind the lines, the middle half (first to third "
                   + "quartile) of one writer's values in the 28 days ending on each day, once 14 of them have a value",
                   hint: "band"),
        KeyBinding([.character("f")], .bandWriter, "follow the next visible writer: with more than three in view it is "
                   + "drawn in full and the others dimmed; its usual range is the one shown, and the detail pane gives "
                   + "its derivation, lateness and Health Connect priority in full"),
        KeyBinding([.character("w")], .whiskers, "whiskers on or off: at week and month zoom, each point's lowest and "
                   + "highest day"),
        KeyBinding([.character("v")], .comparison, "compare writers: for each pair with at least 14 shared days, how far "
                   + "apart they read", hint: "compare"),
        KeyBinding([.character("d")], .derivations, "what each writer's number is: every maker's derivation, with the "
                   + "pages that say so (also from help and the comparison)"),
        KeyBinding([.character("<")], .columnsLeft, "per-source columns: scroll to the writers on the left"),
        KeyBinding([.character(">")], .columnsRight, "per-source columns: scroll to the writers on the right"),
        KeyBinding([.tab], .focusNext, "focus: chart → per-source columns → detail (a click focuses a pane)",
                   hint: "focus"),
        KeyBinding([.backTab], .focusPrevious, "focus the other way"),
        KeyBinding([.character("/")], .goToDate, "go to a date: 2026-03-12, 2026-03, 2026 or 12 Mar 2026", hint: "date"),
        KeyBinding([.character("r")], .reload, "reload from the store", hint: "reload"),
        KeyBinding([.character("p")], .report, "write a report (PDF) of the window in view: its days, aggregation, "
                   + "visible writers, mean and usual range, with each writer's derivation and flags; the footer says "
                   + "where it went", hint: "report"),
        KeyBinding([.character("?"), .function(1)], .help, "this help", hint: "help"),
        KeyBinding([.escape], .close, "close help, the comparison, the derivations or the date prompt"),
        KeyBinding([.character("q"), .control("c"), .function(10)], .quit,
                   "quit (q closes help, the comparison or the derivations first)", hint: "quit"),
    ]

    private static let byKey: [Key: DashboardAction] = {
        var map: [Key: DashboardAction] = [:]
        for binding in bindings {
            for key in binding.keys { map[key] = binding.action }
        }
        return map
    }()

    public static func action(for key: Key) -> DashboardAction? { byKey[key] }

    public static func binding(for action: DashboardAction) -> KeyBinding? {
        bindings.first { $0.action == action }
    }
}
