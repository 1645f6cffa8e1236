import Synchronization

/// The most recent value of something, handed from one writer thread to one reader thread
/// without locks and without tearing: a triple buffer.
///
/// The writer fills a private back buffer, then swaps it with the shared middle slot in one
/// atomic exchange; the reader swaps its private front buffer with the middle slot when a new
/// value is there. Each buffer is touched by one thread at a time, so the values themselves are
/// never raced on. The writer never waits for the reader, and nothing allocates after `init`.
public final class LatestValue<Value>: @unchecked Sendable {
    private let buffers: UnsafeMutablePointer<Value>
    /// Index of the middle buffer, with `freshBit` set when it holds a value the reader has not seen.
    private let middle: Atomic<Int>
    private var back = 1  // writer-owned
    private var front = 0  // reader-owned
    private static var freshBit: Int { 4 }

    public init(_ initial: Value) {
        buffers = UnsafeMutablePointer<Value>.allocate(capacity: 3)
        buffers.initialize(repeating: initial, count: 3)
        middle = Atomic(2)
    }

    deinit {
        buffers.deinitialize(count: 3)
        buffers.deallocate()
    }

    /// Publishes a new value (writer thread only).
    public func publish(_ value: Value) {
        buffers[back] = value
        back = middle.exchange(back | Self.freshBit, ordering: .acquiringAndReleasing) & ~Self.freshBit
    }

    /// The newest published value (reader thread only).
    public func read() -> Value {
        if middle.load(ordering: .relaxed) & Self.freshBit != 0 {
            front = middle.exchange(front, ordering: .acquiringAndReleasing) & ~Self.freshBit
        }
        return buffers[front]
    }
}
