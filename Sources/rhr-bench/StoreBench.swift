// The store benchmark: apply a 1,000-sample batch to a 10-year store (DESIGN.md section 7).
enum StoreBench {
    static func run(_ arguments: [String]) throws {
        print("store: not measured yet")
    }
}
