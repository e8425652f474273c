import Foundation
import RHRCore
import RHRScreen

/// R9: never an empty chart. No data at all gets onboarding; heart rate without a resting writer gets words.
enum EmptyStateView {
    struct Model {
        /// Why there is no chart: no data, or heart rate without a resting writer.
        var diagnosis: DataDiagnosis
        var notices: [String]
        /// Dates of other years show their year.
        var thisYear: Int = 0
        /// The machine's clock, for when each import was read.
        var zone: TimeZone = .current
        /// Files on the command line that could not be imported, when nothing else is there: said instead of
        /// the first-run screen.
        var importFailures: [ImportFailure] = []
        /// Heart-rate writers with sedentary samples: the sedentary minimum can be charted (`c`).
        var hasContext = false
        /// The roads data came by: a feed's permissions can be why a store holds no resting value (R10).
        var streams: [StreamState] = []
    }

    static func lines(_ model: Model, width: Int, glyphs g: Glyphs) -> [StyledLine] {
        var out: [StyledLine] = []
        func paragraph(_ text: String, _ style: Style = .plain, indent: Int = 2) {
            // A column free at the right.
            out += StyledLine.paragraph(text, width: width - 1, indent: indent, style: style, glyphs: g)
        }
        func command(_ cmd: String, _ what: String) {
            let left = "    " + TextFit.pad(cmd, 34)
            let rest = TextFit.wrap(g.text(what), max(10, width - DisplayWidth.of(left) - 2), ellipsis: g.ellipsis)
            for (i, line) in rest.enumerated() {
                out.append(StyledLine([Span(i == 0 ? left : String(repeating: " ", count: DisplayWidth.of(left)), .bold),
                                       Span(line, .muted)]))
            }
        }
        out.append(StyledLine(""))
        switch model.diagnosis {
        case .noData where !model.importFailures.isEmpty:
            let (title, paragraphs) = ImportFailure.explanation(model.importFailures)
            paragraph(title, .title)
            for text in paragraphs {
                out.append(StyledLine(""))
                paragraph(text)
            }
        case .noData:
            paragraph("No resting heart rate here yet.", .title)
            out.append(StyledLine(""))
            paragraph("rhr shows one value per day for every app that writes resting heart rate to Apple HealthKit "
                      + "or Android Health Connect, each writer on its own line. To bring data in:")
            out.append(StyledLine(""))
            command("rhr import export.zip", "an Apple Health export (Health app, your picture, Export All Health Data)")
            command("rhr import \"Health Connect.zip\"", "a Health Connect export")
            command("rhr import export.json", "a Health Auto Export JSON file")
            command("rhr daemon", "then let a phone bridge push sync batches as they happen")
            command("rhr daemon --http ADDR:PORT", "or let phones post Health Auto Export or HC Webhook to it "
                    + "(docs/phone-feeds.md)")
            command("rhr demo", "look around with the bundled samples")
        case .noHeartData(let imported):
            paragraph("No heart data in what was imported.", .title)
            out.append(StyledLine(""))
            for line in DataDiagnosis.explanation(imported: imported, thisYear: model.thisYear, zone: model.zone) { paragraph(line) }
            out.append(StyledLine(""))
            command("rhr import export.zip", "an Apple Health export with resting heart rate or heart rate")
            command("rhr import \"Health Connect.zip\"", "a Health Connect export")
        case .noRestingWriter(let stores):
            paragraph("No resting heart rate to show.", .title)
            out.append(StyledLine(""))
            for store in stores {
                paragraph(DataDiagnosis.explanation(store, streams: model.streams))
                out.append(StyledLine(""))
            }
            // What can be drawn comes before why the rest is missing, so a short screen still shows it.
            if model.hasContext {
                paragraph("c charts the sedentary minimum instead: each day's lowest heart rate marked sedentary. It is "
                          + "context, not resting heart rate.", .bold)
            } else if stores.contains(where: { $0.store == .healthKit }) {
                paragraph("None of these heart-rate samples is marked sedentary, so there is no sedentary minimum to "
                          + "chart either.")
            }
            for store in stores {
                let reasons = DataDiagnosis.reasons(store)
                guard let lead = reasons.first else { continue }
                out.append(StyledLine(""))
                paragraph(lead)
                for reason in reasons.dropFirst() {
                    for (i, line) in TextFit.wrap(g.text(reason), width - 7, ellipsis: g.ellipsis).enumerated() {
                        out.append(StyledLine((i == 0 ? "  \(g.dot) " : "    ") + line))
                    }
                }
            }
            if out.last?.width != 0 { out.append(StyledLine("")) }
            paragraph("Import an export that has resting values, or connect a bridge that reads them.")
        case .resting:
            break
        }
        let notes = model.notices
        if !notes.isEmpty {
            out.append(StyledLine(""))
            for note in notes { paragraph("\(g.dot) " + note, .muted) }
        }
        return out
    }

    static func draw(_ model: Model, in rect: Rect, glyphs: Glyphs, on buffer: inout ScreenBuffer) {
        buffer.fill(rect)
        for (row, line) in lines(model, width: rect.width, glyphs: glyphs).prefix(rect.height).enumerated() {
            line.draw(in: &buffer, x: rect.x, y: rect.y + row, clip: rect)
        }
    }
}
