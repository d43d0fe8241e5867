import Foundation
import Testing

@testable import FluxShellSystem

/// The runtime's global-enqueue hook is set only while a thread runs with a route, and what was
/// set before (swift-concurrency-extras' `withMainSerialExecutor`, a test's) is found again after.
/// Tested on a variable of the test's own: the runtime's serves the other tests meanwhile.
@Suite struct TaskRoutingTests {
    static let mine: EnqueueHook.Hook = { job, original in original(job) }
    static let foreign: EnqueueHook.Hook = { job, original in original(job) }
    static let another: EnqueueHook.Hook = { job, original in original(job) }

    /// A hook of `mine` in a variable of its own, which holds `start` first.
    static func hook(holding start: EnqueueHook.Hook?) -> (EnqueueHook, UnsafeMutablePointer<EnqueueHook.Hook?>) {
        let slot = UnsafeMutablePointer<EnqueueHook.Hook?>.allocate(capacity: 1)
        slot.initialize(to: start)
        return (EnqueueHook(slot: slot, hook: mine), slot)
    }

    static func address(_ hook: EnqueueHook.Hook?) -> UInt { EnqueueHook.address(hook) }

    @Test func theHookIsSetWhileRoutesRunAndTheOneBeforeIsBackAfter() {
        let (hook, slot) = Self.hook(holding: Self.foreign)
        defer { slot.deallocate() }
        hook.begin()
        #expect(Self.address(slot.pointee) == Self.address(Self.mine))
        #expect(hook.before.load(ordering: .relaxed) == Self.address(Self.foreign))
        hook.begin()
        hook.end()
        #expect(Self.address(slot.pointee) == Self.address(Self.mine), "another thread still routes")
        hook.end()
        #expect(Self.address(slot.pointee) == Self.address(Self.foreign))
    }

    @Test func aHookSetWhileRoutesRunIsGoneOnToAndLeftInPlace() {
        let (hook, slot) = Self.hook(holding: nil)
        defer { slot.deallocate() }
        hook.begin()
        // Someone sets a hook of theirs meanwhile (a test's `withMainSerialExecutor`).
        slot.pointee = Self.another
        hook.begin()
        #expect(Self.address(slot.pointee) == Self.address(Self.mine), "the next route sets it again")
        #expect(hook.before.load(ordering: .relaxed) == Self.address(Self.another))
        hook.end()
        hook.end()
        #expect(Self.address(slot.pointee) == Self.address(Self.another))
        // Set over by another after the last route began, it is left as the other set it.
        hook.begin()
        slot.pointee = Self.foreign
        hook.end()
        #expect(Self.address(slot.pointee) == Self.address(Self.foreign))
    }

    @Test func aRouteTakesTheThreadsTasksAndOneItPassesOnRuns() async {
        let taken = LockedValue<[UnownedJob]>([])
        let route = TaskRoute { job in
            taken.withLock { $0.append(job) }
            return true
        }
        let ran = LockedValue(false)
        TaskRouting.routing(to: route) {
            _ = Task.detached { ran.withLock { $0 = true } }
        }
        #expect(taken.withLock { $0.count } == 1)
        let ranWhileTaken = ran.withLock { $0 }
        #expect(!ranWhileTaken)
        for job in taken.withLock({ $0 }) { TaskRouting.passOn(job) }
        while !ran.withLock({ $0 }) { await Task.yield() }
        let declined = LockedValue(false)
        TaskRouting.routing(to: TaskRoute { _ in false }) {
            _ = Task.detached { declined.withLock { $0 = true } }
        }
        while !declined.withLock({ $0 }) { await Task.yield() }
    }
}
