/// A test's set-up or helper could not do its part: the message says what and, where it helps, how to fix it.
/// (A helper of this module throws it instead of recording an issue, so the module stays free of `Testing`
/// and `rhr-bench` can link it.)
public struct TestFailure: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
