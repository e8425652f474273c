import Foundation
import RHRCore

/// Buffered bytes to a file (or only counted, when there is no path).
final class ByteSink {
    private let fd: Int32
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity = 1 << 20
    private var used = 0
    private(set) var written: Int64 = 0
    private var failure: String?

    init(path: String?) {
        fd = path.map { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) } ?? -1
        if path != nil && fd < 0 { failure = "cannot create \(path!): \(String(cString: strerror(errno)))" }
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        buffer.deallocate()
        if fd >= 0 { Foundation.close(fd) }
    }

    @inline(__always)
    private func reserve(_ n: Int) {
        if used + n > capacity { flush() }
    }

    private func flush() {
        if fd >= 0 && failure == nil {
            var done = 0
            while done < used {
                let w = Foundation.write(fd, buffer + done, used - done)
                if w < 0 {
                    if errno == EINTR { continue }
                    failure = "write failed: \(String(cString: strerror(errno)))"
                    break
                }
                done += w
            }
        }
        written += Int64(used)
        used = 0
    }

    func close() throws {
        flush()
        if let failure { throw GeneratorError(message: failure) }
    }

    func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            reserve(bytes.count)
            (buffer + used).update(from: bytes.baseAddress!, count: bytes.count)
            used += bytes.count
        }
    }

    @inline(__always)
    private func put(_ b: UInt8) {
        buffer[used] = b
        used += 1
    }

    private func digits(_ value: Int, _ count: Int) {
        var v = value
        var k = count - 1
        while k >= 0 {
            buffer[used + k] = UInt8(0x30 + v % 10)
            v /= 10
            k -= 1
        }
        used += count
    }

    func int(_ value: Int64) {
        reserve(24)
        if value < 0 { put(0x2D) }
        var v = value.magnitude
        var tmp: [UInt8] = []
        repeat { tmp.append(UInt8(0x30 + v % 10)); v /= 10 } while v > 0
        for b in tmp.reversed() { put(b) }
    }

    /// `scaled / 10^decimals` written with exactly `decimals` decimals.
    func fixed(_ scaled: Int64, decimals: Int) {
        guard decimals > 0 else { int(scaled); return }
        var p: Int64 = 1
        for _ in 0..<decimals { p *= 10 }
        int(scaled / p)
        reserve(decimals + 1)
        put(0x2E)
        digits(Int(scaled % p), decimals)
    }

    func hex(_ value: UInt64) {
        reserve(16)
        let s = String(value, radix: 16)
        for b in s.utf8 { put(b) }
    }

    /// `2024-03-14 21:05:33 +0100`.
    func date(_ epoch: Int64, offset: Int) {
        reserve(25)
        let local = epoch + Int64(offset)
        let days = Int((Double(local) / 86_400).rounded(.down))
        let second = Int(local - Int64(days) * 86_400)
        let c = LocalDay.civil(days)
        digits(c.year, 4); put(0x2D); digits(c.month, 2); put(0x2D); digits(c.day, 2); put(0x20)
        digits(second / 3600, 2); put(0x3A); digits(second / 60 % 60, 2); put(0x3A); digits(second % 60, 2); put(0x20)
        put(offset < 0 ? 0x2D : 0x2B)
        digits(abs(offset) / 3600, 2); digits(abs(offset) / 60 % 60, 2)
    }

    /// `8:32:18.72 PM`, the clock HRV lists use.
    func clock(_ secondOfHalfDay: Double) {
        reserve(16)
        let whole = Int(secondOfHalfDay)
        let hour = whole / 3600 % 12
        let hundredths = Int((secondOfHalfDay - Double(whole)) * 100)
        let h = hour == 0 ? 12 : hour
        if h >= 10 { digits(h, 2) } else { digits(h, 1) }
        put(0x3A); digits(whole / 60 % 60, 2); put(0x3A); digits(whole % 60, 2); put(0x2E); digits(hundredths, 2)
        append(" AM")
    }
}
