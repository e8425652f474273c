import RHRTestSupport
import Testing

extension RHRSandbox {
    /// An import that sets a test up: it must succeed, or what the test checks next would say nothing.
    func imported(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try run(arguments)
        try #require(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
    }
}
