// Where the dashboard's `p` writes its report, and writing it: the dashboard's runtime does the I/O, never `update`.
import Foundation
import RHRCore
import RHRDashboard
import RHRReport

/// `p` in the dashboard (docs/design.md section 6, the report): the window in view drawn as a PDF, from the index on
/// screen (`TrendReport`), written 0600 into `$XDG_DOCUMENTS_DIR` when it names a directory, else the directory rhr
/// was started in, under a name with its dates (`rhr-report-2026-03-08-to-2026-03-21.pdf`, `…-2.pdf` when that is
/// taken).
public struct DashboardReports: Sendable {
    public let directory: String
    public let page: PageSize

    public init(directory: String, page: PageSize = .a4) {
        self.directory = directory
        self.page = page
    }

    /// `$XDG_DOCUMENTS_DIR` when it is an absolute path to a directory, else `currentDirectory`.
    public init(environment: [String: String], currentDirectory: String = FileManager.default.currentDirectoryPath) {
        var isDirectory: ObjCBool = false
        if let documents = environment["XDG_DOCUMENTS_DIR"], documents.hasPrefix("/"),
           FileManager.default.fileExists(atPath: documents, isDirectory: &isDirectory), isDirectory.boolValue {
            self.init(directory: documents)
        } else {
            self.init(directory: currentDirectory)
        }
    }

    /// Draws and writes the report of `request` over `index`; what the dashboard is told of it.
    func write(_ request: TrendReport.Request, of index: DashboardIndex) -> DashboardEvent {
        let report = TrendReport(index, request)
        do {
            let rendered = try ReportRenderer.render(report, format: .pdf, page: page)
            let paths = try ReportFiles.write(rendered, to: freePath(for: report))
            return .reportWritten(paths: paths, pages: rendered.pages)
        } catch let failure as ReportFailure {
            return .reportFailed(failure.description)
        } catch {
            return .reportFailed("\(error)")
        }
    }

    /// `rhr-report-FROM-to-TO.pdf` in the directory, numbered when a file has that name already.
    func freePath(for report: TrendReport) -> String {
        let dates = report.period.map { "-\($0.from)-to-\($0.to)" } ?? ""
        let base = PathText.join(directory, "rhr-report\(dates)")
        var path = base + ".pdf", n = 1
        while FileManager.default.fileExists(atPath: path) {
            n += 1
            path = "\(base)-\(n).pdf"
        }
        return path
    }
}
