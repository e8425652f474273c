// The report benchmark (docs/design.md section 7): `rhr report` of a year of 8 writers, ≤ 1 s and ≤ 64 MB.
import Foundation
import RHRCore
import RHRDashboard
import RHRLive
import RHRReport
import RHRStore
import RHRSystem

// On the dashboard benchmark's store (years × 8 writers, `DashboardHistory`), the last year:
// - end to end: the real `rhr report` as a PDF, a PNG and an SVG, wall time (median) and peak RSS (the largest),
//   against `rhr --version` started the same way;
// - in process: reading the year, preparing it and drawing it, each part's median.
//
//   rhr-bench report [--years N] [--runs N] [--dir DIR] [--seed N] [--keep]
enum ReportBench {
    struct Options {
        var years = 10
        var runs = 5
        var seed: UInt64 = 1
        var dir = "bench-out"
        var keep = false

        init(_ arguments: [String]) throws {
            try BenchArguments.read(arguments, into: &self, [
                "--years": .count(\.years), "--runs": .count(\.runs), "--seed": .seed(\.seed), "--dir": .value(\.dir),
                "--keep": .flag(\.keep),
            ])
        }
    }

    static func run(_ arguments: [String]) throws {
        let options = try Options(arguments)
        try FileManager.default.createDirectory(atPath: options.dir, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let path = options.dir + "/report-\(options.years)y.sqlite"
        let dashboardOptions = try DashboardBench.Options(["--years", "\(options.years)", "--seed", "\(options.seed)"])
        let (samples, _) = try DashboardBench.buildStore(at: path, options: dashboardOptions)
        defer { if !options.keep { DashboardBench.removeStore(path) } }
        let to = DashboardHistory(years: options.years, lastDay: MachineClock.today(), seed: options.seed).lastDay
        let from = to.adding(days: -364)
        print("report: the year \(from) to \(to) of a store of \(options.years) years × \(DashboardHistory.writerCount) "
              + "writers, \(samples) resting samples")

        let rhr = PathText.join(PathText.parent(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")), "rhr")
        guard FileManager.default.isExecutableFile(atPath: rhr) else {
            throw DashboardBench.BenchError("\(rhr) is missing: build it (swift build -c release) before measuring")
        }
        func runs(_ argv: [String]) throws -> Child.Result {
            let results = (0..<options.runs).map { _ in Child.run(argv) }
            if let failed = results.first(where: { $0.status != 0 }) {
                throw DashboardBench.BenchError("\(argv.joined(separator: " ")) failed: \(failed.output)\(failed.errors)")
            }
            var median = results.sorted { $0.seconds < $1.seconds }[results.count / 2]
            median.maxRSSKB = results.map(\.maxRSSKB).max() ?? 0
            return median
        }
        let baseline = try runs([rhr, "--version"])
        print("  `rhr --version`: \(DashboardBench.ms(baseline.seconds)), peak RSS \(megabytes(baseline.maxRSSKB)) "
              + "(" + (Child.rssIsExact ? "by GNU time" : "by wait4, an upper bound") + ")")
        for format in ReportFormat.allCases {
            let output = "\(options.dir)/report-\(getpid()).\(format.rawValue)"
            defer { for file in ReportFiles.paths(for: output, pages: 2, format: format) { unlink(file) } }
            let result = try runs([rhr, "--store", path, "report", "--from", from.description, "--to", to.description,
                                   "--output", output])
            print("  rhr report of the year as \(format.rawValue.uppercased()) (median of \(options.runs)): "
                  + "\(DashboardBench.ms(result.seconds)) (target ≤ 1 s, ratio \(DashboardBench.ratio(result.seconds, 1))), "
                  + "peak RSS \(megabytes(result.maxRSSKB)) (target ≤ 64 MB, ratio "
                  + "\(DashboardBench.ratio(Double(result.maxRSSKB), 64 * 1024)))")
        }

        // In process: where the time goes.
        let database = try HealthDatabase(path: path)
        var read: [Double] = [], prepare: [Double] = [], draw: [Double] = []
        for _ in 0..<options.runs {
            let t0 = DashboardBench.now()
            let data = try DashboardLoader.load(database, source: path, from: from.adding(days: -TrendReport.lookBackDays), to: to)
            let t1 = DashboardBench.now()
            let report = TrendReport(DashboardIndex(data), TrendReport.Request(from: from, to: to))
            let t2 = DashboardBench.now()
            _ = try ReportRenderer.render(report, format: .pdf, page: .a4)
            let t3 = DashboardBench.now()
            read.append(t1 - t0)
            prepare.append(t2 - t1)
            draw.append(t3 - t2)
        }
        print("  in process (median of \(options.runs)): read the year \(DashboardBench.ms(DashboardBench.median(read))), "
              + "prepare \(DashboardBench.ms(DashboardBench.median(prepare))), draw the PDF "
              + "\(DashboardBench.ms(DashboardBench.median(draw)))")
    }

    private static func megabytes(_ kilobytes: Int) -> String { String(format: "%.1f MB", Double(kilobytes) / 1024) }
}
