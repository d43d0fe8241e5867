#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// FluxCore's two uses of libc: the lock, and the test of whether a thread is the main one.

/// A pthread mutex on the heap, so that its address never moves, and what it guards: a
/// dispatcher's handlers and queue, a store's state and observers. Their owner reads and writes
/// `guarded` only while it holds the lock.
///
/// NB: `Synchronization.Mutex` is not recursive, and the dispatcher needs a lock that the
/// delivering thread can take again (a handler that registers, or dispatches a follow-up).
@usableFromInline
final class PlatformLock<Guarded>: @unchecked Sendable {
    // NB: @unchecked Sendable is safe: `guarded` is read and written only while `mutex` is
    // locked (the owner's contract above; the one exception, a store's farewells read in its
    // `deinit`, is told there), and the mutex, which exists to be shared between threads, is
    // never reassigned. This is FluxCore's one such declaration: the dispatcher and the store's
    // storage keep their changing state here and are checked `Sendable`.
    @usableFromInline
    let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // NB: @exclusivity(unchecked) is safe for the same reason: under the lock no two accesses
    // overlap (a handler that registers while its dispatcher delivers reaches the handlers by
    // index, never while a borrow of them is open), and the run-time checks cost an action more
    // than the rest of its locking.
    @usableFromInline
    @exclusivity(unchecked)
    var guarded: Guarded

    @usableFromInline
    init(recursive: Bool, guarding guarded: Guarded) {
        self.guarded = guarded
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(
            &attributes, Int32(recursive ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_NORMAL))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inlinable @inline(__always)
    func lock() { pthread_mutex_lock(mutex) }

    @inlinable @inline(__always)
    func unlock() { pthread_mutex_unlock(mutex) }

    @inlinable @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// Tells whether the calling thread is the process's main thread, with no call into Foundation.
///
/// Foundation's `Thread.isMainThread` goes through `Thread.current` on Linux, which costs more
/// than the rest of a presenter's action; a presenter asks on every action.
@usableFromInline
struct MainThread: Sendable {
    #if canImport(Darwin)
        @inlinable
        static var check: MainThread { MainThread() }

        @inlinable
        var isCurrent: Bool { pthread_main_np() != 0 }
    #else
        /// Each thread's answer, cached in a thread-specific slot: 1 for the main thread, 2 for
        /// any other, empty until the thread first asks.
        ///
        /// NB: the slot holds a small integer as a pointer, never dereferenced. Reading it is one
        /// `pthread_getspecific`, where `Thread.isMainThread` builds `Thread.current`; the first
        /// question on a thread reads its id once. The key is
        /// kept in each executor, so a check does not go through the global's `swift_once`.
        @usableFromInline
        let answers: pthread_key_t

        private static let shared: MainThread = {
            var key = pthread_key_t()
            pthread_key_create(&key, nil)
            return MainThread(answers: key)
        }()

        @usableFromInline
        static var check: MainThread { shared }

        private init(answers: pthread_key_t) { self.answers = answers }

        @inlinable
        var isCurrent: Bool {
            if let answer = pthread_getspecific(answers) { return Int(bitPattern: answer) == 1 }
            return rememberAnswer()
        }

        /// Finds out and caches whether this thread is the main one: on Linux the main thread's
        /// id is the process id. With no `/proc` to ask, a thread counts as not main, so its views
        /// are still called on the main queue, only never at once.
        @usableFromInline
        func rememberAnswer() -> Bool {
            let isMain = Self.threadID() == getpid()
            pthread_setspecific(answers, UnsafeRawPointer(bitPattern: isMain ? 1 : 2))
            return isMain
        }

        /// The kernel's id of the calling thread, from the `/proc/thread-self` link
        /// (`PID/task/TID`): glibc's `gettid` is not visible to Swift.
        private static func threadID() -> pid_t? {
            var buffer = [CChar](repeating: 0, count: 64)
            let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
            guard count > 0 else { return nil }
            let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard let slash = link.lastIndex(of: "/") else { return nil }
            return pid_t(link[link.index(after: slash)...])
        }
    #endif
}
