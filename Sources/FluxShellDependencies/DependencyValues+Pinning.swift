import Dependencies
import FluxShell
import Foundation

extension DependencyValues {
    /// Sets the values the shell pins from `environment`.
    mutating func pin(to environment: ShellEnvironment) {
        date = DateGenerator { environment.now }
        uuid = UUIDGenerator { environment.uuid() }
        continuousClock = environment.clock
        suspendingClock = environment.clock
        withRandomNumberGenerator = WithRandomNumberGenerator(environment.random)
        calendar = pinnedCalendar
        timeZone = .gmt
        locale = pinnedLocale
    }

    /// Whether `other` is this very value, not only an equal one: a copy of the same values, as a
    /// task-local binding hands them out.
    ///
    /// NB: `DependencyValues` is not `Equatable` (it holds `any Sendable` values), and comparing
    /// its values one by one would cost what setting them does. Its stored properties are
    /// references (a cache shared by every copy, the storage of the values set) and values: equal
    /// bits are the same references, and the storage a caller keeps a copy of is never changed
    /// in place (it is copied on write), so equal bits are equal values. Values that differ always
    /// differ in their bits: a wrong "no" only makes them anew.
    func isIdentical(to other: DependencyValues) -> Bool {
        ValueDiffer.sameBits(self, other)
    }
}

/// Gregorian, in UTC, in the POSIX locale: the calendar the session's dates print in
/// (`2026-01-01T00:00:00Z`), whatever the machine's region and settings, so that the start of a
/// day, a weekday or the first day of a week come out the same everywhere.
private let pinnedCalendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .gmt
    calendar.locale = pinnedLocale
    return calendar
}()

/// `en_US_POSIX`: the locale whose formats never change with a user's settings.
private let pinnedLocale = Locale(identifier: "en_US_POSIX")
