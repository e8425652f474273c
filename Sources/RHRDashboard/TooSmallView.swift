import RHRScreen

/// Under 60×16 the dashboard cannot be read: say so, and the size it needs. `q` still quits.
enum TooSmallView {
    static func draw(glyphs: Glyphs, on buffer: inout ScreenBuffer) {
        let size = buffer.size
        buffer.fill(buffer.bounds)
        let need = DashboardLayout.minimum
        if size.width < 18 || size.height < 3 {
            // Too small even for the sentence: the gist, cut to fit.
            for (i, text) in ["too small:", "need \(need.text(unicode: glyphs.unicode))"].enumerated() {
                buffer.write(text, x: 0, y: i, style: .title)
            }
            return
        }
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
