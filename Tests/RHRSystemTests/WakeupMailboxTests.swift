import Foundation
import RHRSystem
import Testing

@Suite("Wake-up mailbox: messages from other threads wake a polling loop")
struct WakeupMailboxTests {
    func readable(_ fd: Int32, within milliseconds: Int32 = 0) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&pfd, 1, milliseconds) == 1
    }

    @Test("Posts from many threads make the descriptor readable and arrive in one take, each thread's in order")
    func posts() {
        let mailbox = try! WakeupMailbox<[Int]>(purpose: "test")
        #expect(!readable(mailbox.fileDescriptor))
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for i in 0..<100 { mailbox.post([thread, i]) }
        }
        #expect(readable(mailbox.fileDescriptor, within: 1000))
        let delivery = mailbox.take()
        #expect(delivery.messages.count == 400)
        #expect(!delivery.interrupted)
        for thread in 0..<4 {
            #expect(delivery.messages.filter { $0[0] == thread }.map { $0[1] } == Array(0..<100))
        }
        // Taken: the pipe is drained and nothing is left.
        #expect(!readable(mailbox.fileDescriptor))
        #expect(mailbox.take().messages.isEmpty)
    }

    @Test("A bare wake-up, from interrupt() or a byte written as a signal handler would, says so once")
    func interrupt() {
        let mailbox = try! WakeupMailbox<Int>(purpose: "test")
        mailbox.interrupt()
        mailbox.post(7)
        #expect(readable(mailbox.fileDescriptor, within: 1000))
        let first = mailbox.take()
        #expect(first.interrupted && first.messages == [7])
        var byte: UInt8 = 1
        #expect(write(mailbox.interruptDescriptor, &byte, 1) == 1)
        #expect(mailbox.take().interrupted)
        #expect(!mailbox.take().interrupted)
    }
}
