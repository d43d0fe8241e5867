/// A place the geocoding search found (TCA's `GeocodingSearch.Result`).
public struct Location: Equatable, Identifiable, Sendable {
    public var id: Int
    public var name: String
    public var country: String
    public var latitude: Double
    public var longitude: Double

    public init(id: Int, name: String, country: String, latitude: Double, longitude: Double) {
        self.id = id
        self.name = name
        self.country = country
        self.latitude = latitude
        self.longitude = longitude
    }
}
