// `rhr report`: the trend drawn as a PDF, SVG or PNG to keep or to share.
import Foundation
import RHRCore
import RHRDashboard
import RHRLive
import RHRReport
import RHRStore
import RHRSystem

/// `rhr report`: the per-day trend, its writers, their derivations and flags, drawn on A4 or Letter pages
/// (docs/design.md section 6, the report), from what the dashboard shows (`TrendReport`), in the file format the
/// output's extension names.
enum ReportCommand {
    static let command = Command(
        name: "report", operands: .none(hint: "name the file with --output FILE"),
        summary: "draw the trend as a PDF, SVG or PNG to keep or to share",
        options: [
            DayRange.fromOption,
            DayRange.toOption,
            AggregationOption.spec,
            .value("page", PageSize.choices, "paper size (default a4)"),
            .flag("mean", "draw each writer's 7-day mean, the day values as dots"),
            .flag("band", "draw the usual range of the writer with the most days"),
            .value("output", "FILE", "the file to write, required: .pdf, .svg or .png (a PNG a page)"),
        ],
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let args = invocation.arguments
        guard let output = args.value("output") else {
            throw UsageError("needs --output FILE, a \(ReportFormat.extensionsWords) file")
        }
        guard let format = ReportFormat(path: output) else {
            throw UsageError("--output must end in \(ReportFormat.extensionsWords), not \(output)")
        }
        let pageName = args.value("page") ?? PageSize.a4.rawValue
        guard let page = PageSize(rawValue: pageName) else {
            throw UsageError("--page must be \(PageSize.allCases.map(\.rawValue).joined(separator: " or ")), not \(pageName)")
        }
        let range = try DayRange(args)
        let view = ViewSettings(aggregation: try AggregationOption.parse(args), showMean: args.has("mean"),
                                showBand: args.has("band"))
        let request = TrendReport.Request(from: range.from, to: range.to, view: view)
        let store = try openStoreForReading(invocation)
        let data: DashboardData
        do {
            data = try DashboardLoader.load(store, source: invocation.storePath,
                                            from: range.from?.adding(days: -TrendReport.lookBackDays), to: range.to)
        } catch {
            throw CommandFailure(error.message)
        }
        let report = TrendReport(DashboardIndex(data), request)
        let rendered: RenderedReport
        do {
            rendered = try ReportRenderer.render(report, format: format, page: page)
        } catch {
            throw CommandFailure(error.description)
        }
        let paths: [String]
        do {
            paths = try ReportFiles.write(rendered, to: output)
        } catch {
            throw CommandFailure("\(error.path): cannot write the report: \(error.reason)")
        }
        invocation.output.write("wrote \(paths.joined(separator: ", ")) (\(Wording.count(rendered.pages, "page"))): \(report.summary)\n")
        return 0
    }
}
