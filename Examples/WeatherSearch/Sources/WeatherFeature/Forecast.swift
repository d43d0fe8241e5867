import Foundation

/// The daily forecast the weather API answers for a location, in degrees Celsius.
public struct Forecast: Equatable, Sendable {
    public var days: [Day]

    public init(days: [Day]) {
        self.days = days
    }

    /// One day of the forecast.
    public struct Day: Equatable, Sendable {
        public var date: Date
        public var temperatureMax: Double
        public var temperatureMin: Double

        public init(date: Date, temperatureMax: Double, temperatureMin: Double) {
            self.date = date
            self.temperatureMax = temperatureMax
            self.temperatureMin = temperatureMin
        }
    }
}
