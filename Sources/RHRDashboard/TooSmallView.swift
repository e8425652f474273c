import RHRTerminal

/// Under 60×16 the dashboard cannot be read: say so, and the size it needs. `q` still quits.
enum TooSmallView {
    static func draw(_ state: DashboardState, in buffer: inout ScreenBuffer) {
        let glyphs = Glyphs(unicode: state.capabilities.unicode)
        let size = buffer.size
        buffer.fill(buffer.bounds)
        let need = DashboardLayout.minimum
        let lines = [
            ("Terminal too small", Style.title),
            ("\(size.text(unicode: glyphs.unicode)): rhr needs at least \(need.text(unicode: glyphs.unicode)).", Style.plain),
            ("Make the window larger, or press q to quit.", Style.muted),
        ].flatMap { text, style in TextFit.wrap(text, size.width, ellipsis: glyphs.ellipsis).map { ($0, style) } }
        let top = max(0, (size.height - lines.count) / 2)
        for (i, (text, style)) in lines.enumerated() {
            let x = max(0, (size.width - DisplayWidth.of(text)) / 2)
            buffer.write(text, x: x, y: top + i, style: style)
        }
    }
}
