@testable import RHRJSON
import Foundation
import Testing


@Suite("JSONLineFramer")
struct JSONLineFramerTests {
    @Test("a line over 16 MiB is reported before its end arrives, then skipped to the next line")
    func sixteenMiB() {
        var framer = JSONLineFramer()
        #expect(framer.maxLineLength == 16 * 1024 * 1024)
        framer.append(Array("{\"a\":1}\n".utf8))
        #expect(framer.next() == .line(Array("{\"a\":1}".utf8), number: 1))
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        var reported: [JSONLineFramer.Item] = []
        for _ in 0..<17 {
            framer.append(chunk)
            while let item = framer.next() { reported.append(item) }
        }
        #expect(reported == [.tooLong(number: 2)])
        // The skipped line's bytes are not kept.
        #expect(framer.pendingByteCount == 0)
        framer.append(chunk)
        framer.append(Array("tail\n{\"b\":2}\n".utf8))
        #expect(framer.next() == .line(Array("{\"b\":2}".utf8), number: 3))
        #expect(framer.next() == nil)
        #expect(framer.finish() == nil)
    }

    @Test("a line of exactly the limit passes, one byte more does not")
    func exactLimit() {
        let limit = 16 * 1024 * 1024
        var framer = JSONLineFramer()
        var line = [UInt8](repeating: UInt8(ascii: " "), count: limit)
        framer.append(line + [0x0D, 0x0A])
        #expect(framer.next() == .line(line, number: 1))
        line.append(UInt8(ascii: " "))
        framer.append(line + [0x0A])
        #expect(framer.next() == .tooLong(number: 2))
        framer.append(line)
        #expect(framer.next() == nil)
        #expect(framer.finish() == .tooLong(number: 3))
    }

    @Test("small limits: CR counts only when it is not a line ending")
    func smallLimit() {
        var framer = JSONLineFramer(maxLineLength: 4)
        framer.append(Array("abcd\r\nabcde\nab\rcd\nabcd".utf8))
        #expect(framer.next() == .line(Array("abcd".utf8), number: 1))
        #expect(framer.next() == .tooLong(number: 2))
        #expect(framer.next() == .tooLong(number: 3))
        #expect(framer.next() == nil)
        #expect(framer.finish() == .line(Array("abcd".utf8), number: 4))
    }

    @Test("lines split across appends byte by byte come out whole")
    func byteByByte() {
        let text = Array("first\r\n\nsecond é\r\nthird".utf8)
        var framer = JSONLineFramer()
        var items: [JSONLineFramer.Item] = []
        for b in text {
            framer.append([b])
            while let item = framer.next() { items.append(item) }
        }
        if let last = framer.finish() { items.append(last) }
        #expect(items == [.line(Array("first".utf8), number: 1), .line([], number: 2),
                          .line(Array("second é".utf8), number: 3), .line(Array("third".utf8), number: 4)])
    }

    @Test("a lone CR inside a line is kept; only CR before LF is a line ending")
    func loneCR() {
        var framer = JSONLineFramer()
        framer.append(Array("a\rb\r\r\n".utf8))
        #expect(framer.next() == .line(Array("a\rb\r".utf8), number: 1))
    }

    @Test("many lines through one framer: old bytes are dropped, numbering goes on")
    func manyLines() {
        var framer = JSONLineFramer()
        var count = 0
        for i in 0..<50_000 {
            framer.append(Array("{\"n\":\(i)}\n".utf8))
            while case .line(let bytes, let number)? = framer.next() {
                count += 1
                #expect(number == i + 1)
                #expect(bytes == Array("{\"n\":\(i)}".utf8))
            }
            #expect(framer.pendingByteCount == 0)
        }
        #expect(count == 50_000)
        framer.append(UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(framer.next() == nil)
    }

    @Test("finish with nothing pending gives nothing")
    func finishEmpty() {
        var framer = JSONLineFramer()
        #expect(framer.finish() == nil)
        framer.append(Array("x\n".utf8))
        _ = framer.next()
        #expect(framer.finish() == nil)
    }
}
