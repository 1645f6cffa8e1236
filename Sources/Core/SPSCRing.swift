import Synchronization

/// What a ring does with a new item when it is full.
public enum RingFullPolicy: Sendable, Equatable {
    /// Keep what is queued and discard the new item (a consumer sees the oldest data).
    case dropNewest
    /// Discard the oldest queued item to make room (a consumer sees the freshest data).
    case overwriteOldest
}

/// A bounded, lock-free queue between exactly one producer thread and one consumer thread.
///
/// The producer's and the consumer's indices live on separate 128-byte lines (two cache lines,
/// so the adjacent-line prefetcher does not pair them), and each side keeps a private copy of
/// the other side's index, so in steady state a push or pop touches no line the other thread
/// writes. Storage is allocated once in `init`; `push` and `pop` never allocate.
///
/// Indices grow without wrapping (a 64-bit counter outlives any device) and are masked into
/// the slot array, whose size is a power of two.
///
/// With `.overwriteOldest` the producer may also advance the consumer's index to drop the
/// oldest item, so the consumer claims each slot by compare-and-swap before reading it and
/// announces the index it is reading; the producer never writes a slot that is being read
/// (in that rare case it drops the new item instead, and counts it).
public final class SPSCRing<Element>: @unchecked Sendable {
    public let capacity: Int
    public let policy: RingFullPolicy
    @usableFromInline let mask: Int
    @usableFromInline let slots: UnsafeMutablePointer<Element>
    @usableFromInline let lines: UnsafeMutableRawPointer

    @usableFromInline static var lineSize: Int { 128 }
    @usableFromInline static var notReading: Int { Int.min }

    /// - Parameter capacity: the number of items the ring holds; rounded up to a power of two.
    public init(capacity requested: Int, policy: RingFullPolicy = .dropNewest) {
        var size = 2
        while size < max(requested, 2) { size <<= 1 }
        capacity = size
        self.policy = policy
        mask = size - 1
        slots = UnsafeMutablePointer<Element>.allocate(capacity: size)
        lines = UnsafeMutableRawPointer.allocate(byteCount: 2 * Self.lineSize, alignment: Self.lineSize)
        // Producer line: head, cached tail, overflow count. Consumer line: tail, cached head, reading.
        lines.bindMemory(to: Atomic<Int>.self, capacity: 1).initialize(to: Atomic(0))
        (lines + 8).bindMemory(to: Int.self, capacity: 1).initialize(to: 0)
        (lines + 16).bindMemory(to: Atomic<Int>.self, capacity: 1).initialize(to: Atomic(0))
        (lines + Self.lineSize).bindMemory(to: Atomic<Int>.self, capacity: 1).initialize(to: Atomic(0))
        (lines + Self.lineSize + 8).bindMemory(to: Int.self, capacity: 1).initialize(to: 0)
        (lines + Self.lineSize + 16).bindMemory(to: Atomic<Int>.self, capacity: 1)
            .initialize(to: Atomic(Self.notReading))
    }

    deinit {
        let head = headIndex.pointee.load(ordering: .relaxed)
        let tail = tailIndex.pointee.load(ordering: .relaxed)
        for index in tail..<head { (slots + (index & mask)).deinitialize(count: 1) }
        slots.deallocate()
        lines.deallocate()
    }

    @usableFromInline var headIndex: UnsafeMutablePointer<Atomic<Int>> {
        lines.assumingMemoryBound(to: Atomic<Int>.self)
    }
    @usableFromInline var producerCachedTail: UnsafeMutablePointer<Int> {
        (lines + 8).assumingMemoryBound(to: Int.self)
    }
    @usableFromInline var overflowCount: UnsafeMutablePointer<Atomic<Int>> {
        (lines + 16).assumingMemoryBound(to: Atomic<Int>.self)
    }
    @usableFromInline var tailIndex: UnsafeMutablePointer<Atomic<Int>> {
        (lines + Self.lineSize).assumingMemoryBound(to: Atomic<Int>.self)
    }
    @usableFromInline var consumerCachedHead: UnsafeMutablePointer<Int> {
        (lines + Self.lineSize + 8).assumingMemoryBound(to: Int.self)
    }
    @usableFromInline var readingIndex: UnsafeMutablePointer<Atomic<Int>> {
        (lines + Self.lineSize + 16).assumingMemoryBound(to: Atomic<Int>.self)
    }

    /// Items lost to the full policy since the ring was made (readable from any thread).
    public var overflows: Int { overflowCount.pointee.load(ordering: .relaxed) }

    /// Items queued now; exact only when called from the producer or the consumer thread.
    public var count: Int {
        headIndex.pointee.load(ordering: .acquiring) - tailIndex.pointee.load(ordering: .acquiring)
    }

    // MARK: Producer side

    /// How many items the producer has queued since the ring was made (producer thread): a mark
    /// a consumer can later take items up to, with `pop(before:)`.
    @inlinable public var pushed: Int { headIndex.pointee.load(ordering: .relaxed) }

    /// Queues an item. Returns false when the item itself was dropped (`.dropNewest` on a full
    /// ring); with `.overwriteOldest` it returns true and the oldest item is gone instead.
    @inlinable @discardableResult
    public func push(_ item: Element) -> Bool {
        let head = headIndex.pointee.load(ordering: .relaxed)
        if head - producerCachedTail.pointee >= capacity {
            producerCachedTail.pointee = tailIndex.pointee.load(ordering: .acquiring)
            if head - producerCachedTail.pointee >= capacity {
                if policy == .dropNewest {
                    overflowCount.pointee.add(1, ordering: .relaxed)
                    return false
                }
                dropOldest(head: head)
            }
        }
        // The slot `head` reuses held item `head - capacity`; the consumer may still be copying it.
        if policy == .overwriteOldest
            && readingIndex.pointee.load(ordering: .sequentiallyConsistent) == head - capacity
        {
            overflowCount.pointee.add(1, ordering: .relaxed)
            return false
        }
        (slots + (head & mask)).initialize(to: item)
        headIndex.pointee.store(head + 1, ordering: .releasing)
        return true
    }

    /// Makes room by discarding the oldest item (the consumer may take it first; either frees a slot).
    @usableFromInline func dropOldest(head: Int) {
        var tail = producerCachedTail.pointee
        while head - tail >= capacity {
            let (exchanged, current) = tailIndex.pointee.compareExchange(
                expected: tail, desired: tail + 1, ordering: .sequentiallyConsistent)
            if exchanged {
                (slots + (tail & mask)).deinitialize(count: 1)
                overflowCount.pointee.add(1, ordering: .relaxed)
                tail += 1
            } else {
                tail = current
            }
        }
        producerCachedTail.pointee = tail
    }

    // MARK: Consumer side

    /// Takes the oldest item, or nil when the ring is empty.
    @inlinable
    public func pop() -> Element? { pop(before: .max) }

    /// Takes the oldest item if it was queued before the producer's `pushed` stood at `mark`;
    /// nil when there is none (the items after the mark stay queued). Items the full policy
    /// dropped are skipped, as `pop` skips them.
    @inlinable
    public func pop(before mark: Int) -> Element? {
        if policy == .overwriteOldest { return claimAndPop(before: mark) }
        let tail = tailIndex.pointee.load(ordering: .relaxed)
        guard tail < mark else { return nil }
        if tail == consumerCachedHead.pointee {
            consumerCachedHead.pointee = headIndex.pointee.load(ordering: .acquiring)
            if tail == consumerCachedHead.pointee { return nil }
        }
        let item = (slots + (tail & mask)).move()
        tailIndex.pointee.store(tail + 1, ordering: .releasing)
        return item
    }

    @usableFromInline func claimAndPop(before mark: Int) -> Element? {
        while true {
            let tail = tailIndex.pointee.load(ordering: .sequentiallyConsistent)
            if tail >= mark || tail == headIndex.pointee.load(ordering: .acquiring) { return nil }
            readingIndex.pointee.store(tail, ordering: .sequentiallyConsistent)
            let (claimed, _) = tailIndex.pointee.compareExchange(
                expected: tail, desired: tail + 1, ordering: .sequentiallyConsistent)
            if claimed {
                let item = (slots + (tail & mask)).move()
                readingIndex.pointee.store(Self.notReading, ordering: .sequentiallyConsistent)
                return item
            }
        }
    }

    /// Hands the oldest item to `body` where it lies in the ring, then takes it off: a large
    /// item (a state of the sampling side) is read in place, not copied out first. Nil when
    /// the ring is empty. On an `.overwriteOldest` ring, whose producer may reuse a slot still
    /// queued, the item is taken first and handed over from the stack.
    @inlinable
    public func withOldest<Result>(_ body: (UnsafePointer<Element>) -> Result) -> Result? {
        guard policy == .dropNewest else { return pop().map { item in withUnsafePointer(to: item) { body($0) } } }
        let tail = tailIndex.pointee.load(ordering: .relaxed)
        if tail == consumerCachedHead.pointee {
            consumerCachedHead.pointee = headIndex.pointee.load(ordering: .acquiring)
            if tail == consumerCachedHead.pointee { return nil }
        }
        let slot = slots + (tail & mask)
        let result = body(UnsafePointer(slot))
        slot.deinitialize(count: 1)
        tailIndex.pointee.store(tail + 1, ordering: .releasing)
        return result
    }

    /// Takes every queued item, oldest first, and returns how many there were.
    @inlinable @discardableResult
    public func drain(_ body: (Element) -> Void) -> Int {
        var taken = 0
        while let item = pop() {
            body(item)
            taken += 1
        }
        return taken
    }
}
