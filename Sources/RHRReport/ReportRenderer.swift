// Draws a report's pages with cairo into PDF, SVG or PNG bytes, the same bytes for the same store.
import CPangoCairo
import RHRCore
import RHRDashboard

/// A report drawn (docs/design.md section 6, the report): PDF pages, one SVG with the pages one under the other, or
/// a PNG per page (150 dots an inch). Deterministic for the same `TrendReport`: the PDF's creation date is the
/// newest read of the store's data (cairo would write the time it ran), and the SVG's ids are numbered in the order
/// they first appear (cairo numbers surfaces process-wide).
public struct RenderedReport: Sendable {
    /// The file's bytes; for PNG one per page.
    public let files: [[UInt8]]
    public let pages: Int
    public let format: ReportFormat
}

public enum ReportRenderer {
    static let pngDotsPerInch = 150.0

    public static func render(_ report: TrendReport, format: ReportFormat, page: PageSize) throws(ReportFailure) -> RenderedReport {
        let text = ReportText(pixelsPerPoint: format == .png ? pngDotsPerInch / 72 : 1)
        let layout = ReportPages(report, size: page, text: text)
        let count = layout.pages.count
        switch format {
        case .pdf:
            let bytes = try collect { (sink, write) throws(ReportFailure) in
                let surface = cairo_pdf_surface_create_for_stream(write, sink, page.width, page.height)!
                setMetadata(report, on: surface)
                try draw(surface) { (cr) throws(ReportFailure) in
                    for i in 0..<count {
                        layout.draw(page: i, on: cr)
                        cairo_show_page(cr)
                    }
                }
            }
            return RenderedReport(files: [bytes], pages: count, format: format)
        case .svg:
            let bytes = try collect { (sink, write) throws(ReportFailure) in
                let surface = cairo_svg_surface_create_for_stream(write, sink, page.width, page.height * Double(count))!
                cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PT)
                try draw(surface) { (cr) throws(ReportFailure) in
                    for i in 0..<count {
                        cairo_save(cr)
                        cairo_translate(cr, 0, page.height * Double(i))
                        paper(page, on: cr)
                        layout.draw(page: i, on: cr)
                        cairo_restore(cr)
                    }
                }
            }
            return RenderedReport(files: [SVGIdentifiers.renumbered(bytes)], pages: count, format: format)
        case .png:
            let scale = pngDotsPerInch / 72
            var files: [[UInt8]] = []
            for i in 0..<count {
                let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32((page.width * scale).rounded()),
                                                         Int32((page.height * scale).rounded()))!
                defer { cairo_surface_destroy(surface) }
                try draw(surface, finish: false) { (cr) throws(ReportFailure) in
                    cairo_scale(cr, scale, scale)
                    paper(page, on: cr)
                    layout.draw(page: i, on: cr)
                }
                files.append(try collect { (sink, write) throws(ReportFailure) in
                    let status = cairo_surface_write_to_png_stream(surface, write, sink)
                    guard status == CAIRO_STATUS_SUCCESS else { throw ReportFailure(status) }
                })
            }
            return RenderedReport(files: files, pages: count, format: format)
        }
    }

    /// White paper under an image's page (a PDF is printed on paper already).
    private static func paper(_ page: PageSize, on cr: OpaquePointer) {
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_rectangle(cr, 0, 0, page.width, page.height)
        cairo_fill(cr)
    }

    /// Draws on `surface` through one context, then finishes the surface (writing out a PDF or SVG) and releases it
    /// unless `finish` is false; a failing status of either is thrown.
    private static func draw(_ surface: OpaquePointer, finish: Bool = true,
                             _ body: (OpaquePointer) throws(ReportFailure) -> Void) throws(ReportFailure) {
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        try body(cr)
        var status = cairo_status(cr)
        if finish {
            cairo_surface_finish(surface)
            if status == CAIRO_STATUS_SUCCESS { status = cairo_surface_status(surface) }
            cairo_surface_destroy(surface)
        }
        guard status == CAIRO_STATUS_SUCCESS else { throw ReportFailure(status) }
    }

    /// The PDF's title, and dates set to the data's newest read rather than the moment it was made.
    private static func setMetadata(_ report: TrendReport, on surface: OpaquePointer) {
        let period = report.period.map { ", " + TrendReport.periodWords($0.from, $0.to) } ?? ""
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, "Resting heart rate" + period)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "rhr")
        let date = (report.noteDay ?? LocalDay(daysSinceEpoch: 0)).description + "T00:00:00Z"
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, date)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_MOD_DATE, date)
    }

    /// Bytes cairo writes through its stream callback while `body` runs.
    private static func collect(_ body: (UnsafeMutableRawPointer, cairo_write_func_t) throws(ReportFailure) -> Void)
        throws(ReportFailure) -> [UInt8] {
        let sink = ByteCollector()
        let pointer = Unmanaged.passRetained(sink).toOpaque()
        defer { Unmanaged<ByteCollector>.fromOpaque(pointer).release() }
        try body(pointer) { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<ByteCollector>.fromOpaque(closure).takeUnretainedValue()
                .bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }
        return sink.bytes
    }
}

/// Where cairo's stream callback puts what it writes.
private final class ByteCollector {
    var bytes: [UInt8] = []
}

/// Cairo failed to draw or write a report: its own words for why.
public struct ReportFailure: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ status: cairo_status_t) {
        description = "could not draw the report: " + String(cString: cairo_status_to_string(status))
    }

    public init(_ description: String) { self.description = description }
}
