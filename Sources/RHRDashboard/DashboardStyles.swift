import RHRScreen

/// Styles with meaning only as emphasis, never as judgement (R11).
extension Style {
    static let title = Style(tint: .accent, .bold)
    /// The focused pane's title: reversed too, so the focus shows without colour.
    static let focusedTitle = Style(tint: .accent, [.bold, .reverse])
    static let muted = Style(tint: .muted)
    static let accent = Style(tint: .accent)
    static let context = Style(tint: .context)

    /// Writer `index`'s colour (0-based), as its glyph has it everywhere.
    static func series(_ index: Int) -> Style { Style(tint: .series(index)) }
}
