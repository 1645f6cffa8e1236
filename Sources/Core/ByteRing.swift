import Synchronization

/// A bounded, lock-free byte queue between one producer thread and one consumer thread, for
/// a stream written in pieces (a recording's events): a write goes in whole or not at all, so
/// the consumer only ever sees whole pieces. Storage is allocated once; writing and reading
/// copy bytes and never allocate. The two indices grow without wrapping (64 bits outlive any
/// device) and are masked into the storage, whose size is a power of two.
public final class ByteRing: @unchecked Sendable {
    public let capacity: Int
    private let mask: Int
    private let storage: UnsafeMutablePointer<UInt8>
    /// Bytes written (the producer's) and bytes read (the consumer's).
    private let written = Atomic<Int>(0)
    private let read = Atomic<Int>(0)

    /// - Parameter capacity: bytes held; rounded up to a power of two.
    public init(capacity requested: Int) {
        var size = 64
        while size < requested { size <<= 1 }
        capacity = size
        mask = size - 1
        storage = .allocate(capacity: size)
    }

    deinit { storage.deallocate() }

    /// Producer: appends `bytes` whole; false (nothing written) when they do not fit now.
    public func write(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return true }
        let head = written.load(ordering: .relaxed)
        let tail = read.load(ordering: .acquiring)
        guard capacity - (head - tail) >= bytes.count else { return false }
        let start = head & mask
        let first = min(bytes.count, capacity - start)
        (storage + start).update(from: source, count: first)
        if first < bytes.count { storage.update(from: source + first, count: bytes.count - first) }
        written.store(head + bytes.count, ordering: .releasing)
        return true
    }

    /// Consumer: hands everything written so far to `body` (in at most two runs, oldest
    /// first), then frees it; returns the count.
    @discardableResult
    public func drain(_ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Int {
        let tail = read.load(ordering: .relaxed)
        let head = written.load(ordering: .acquiring)
        let count = head - tail
        guard count > 0 else { return 0 }
        let start = tail & mask
        let first = min(count, capacity - start)
        body(UnsafeBufferPointer(start: storage + start, count: first))
        if first < count { body(UnsafeBufferPointer(start: storage, count: count - first)) }
        read.store(head, ordering: .releasing)
        return count
    }

    /// Every byte written since the ring was made (the producer's own count: where the next
    /// write begins in the stream).
    public var writtenTotal: Int { written.load(ordering: .relaxed) }

    /// Bytes waiting (either side; a moment's figure).
    public var count: Int { written.load(ordering: .acquiring) - read.load(ordering: .acquiring) }
}
