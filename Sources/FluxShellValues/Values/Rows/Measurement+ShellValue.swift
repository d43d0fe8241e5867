import FluxShellJSON

#if canImport(Foundation)
    import Foundation

    // “Printed values” in the reference, rule 1: a measurement is its value and its unit's symbol,
    // `{"value":5,"unit":"km"}`, and types back from that form.
    //
    // NB: `Measurement` and its units live in Foundation, not FoundationEssentials; every
    // executable that links the shell links Foundation already (its dependencies do).

    extension Measurement: ShellValue {
        /// A few values in the unit type's own units.
        static var examples: [JSONValue] {
            knownUnits.prefix(3).flatMap { unit in
                [JSONValue.int(5), .number("1.5"), .int(0)].map {
                    .object(JSONObject([("value", $0), ("unit", .string(unit.symbol))]))
                }
            }
        }

        /// A whole value without a fraction (`5`, as “Printed values” in the reference writes it),
        /// any other as a `Double` prints.
        func shellValue(_ reader: ValueReader) -> JSONValue {
            let whole = value.rounded() == value && abs(value) < 1e15
            let number = whole ? JSONValue.int(Int(value)) : NumberText.value(value)
            return .object(JSONObject([("value", number), ("unit", .string(unit.symbol))]))
        }

        /// The unit is found by its symbol among the unit type's own (`km` is `UnitLength.kilometers`,
        /// with its conversion); a unit that is not a `Dimension` is made from its symbol.
        static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Measurement<UnitType> {
            let expected = "a measurement such as {\"value\":5,\"unit\":\"km\"}"
            guard case .object(let object) = value, object.count == 2, let number = object["value"],
                case .string(let symbol)? = object["unit"]
            else { throw mismatch(expected, value, at: path) }
            let amount = try ValueBuilder.build(Double.self, from: number, at: path + [MemberKey("value")])
            if let unit = Self.knownUnits.first(where: { $0.symbol == symbol }) {
                return Measurement(value: amount, unit: unit)
            }
            if !(UnitType.self is Dimension.Type) { return Measurement(value: amount, unit: UnitType(symbol: symbol)) }
            let known = Self.knownUnits.map(\.symbol)
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: path + [MemberKey("unit")],
                    debugDescription: known.isEmpty
                        ? "\(UnitType.self) has no unit the shell knows by its symbol, found \"\(symbol)\""
                        : "expected the symbol of a \(UnitType.self) (\(known.joined(separator: ", "))), found \"\(symbol)\""
                ))
        }

        /// The units Foundation defines for `UnitType`, base unit first.
        static var knownUnits: [UnitType] {
            let units: [Unit]
            switch UnitType.self {
            case is UnitLength.Type:
                units = [UnitLength]([
                    .meters, .kilometers, .centimeters, .millimeters, .micrometers, .nanometers, .megameters,
                    .hectometers, .decameters, .decimeters, .picometers, .inches, .feet, .yards, .miles,
                    .scandinavianMiles,
                    .lightyears, .nauticalMiles, .fathoms, .furlongs, .astronomicalUnits, .parsecs,
                ])
            case is UnitMass.Type:
                units = [UnitMass]([
                    .kilograms, .grams, .decigrams, .centigrams, .milligrams, .micrograms, .nanograms, .picograms,
                    .ounces, .pounds, .stones, .metricTons, .shortTons, .carats, .ouncesTroy, .slugs,
                ])
            case is UnitDuration.Type:
                units = [UnitDuration]([
                    .seconds, .minutes, .hours, .milliseconds, .microseconds, .nanoseconds, .picoseconds,
                ])
            case is UnitTemperature.Type:
                units = [UnitTemperature]([.kelvin, .celsius, .fahrenheit])
            case is UnitSpeed.Type:
                units = [UnitSpeed]([.metersPerSecond, .kilometersPerHour, .milesPerHour, .knots])
            case is UnitArea.Type:
                units = [UnitArea]([
                    .squareMeters, .squareKilometers, .squareCentimeters, .squareMillimeters, .squareMicrometers,
                    .squareNanometers, .squareMegameters, .squareInches, .squareFeet, .squareYards, .squareMiles,
                    .acres,
                    .ares, .hectares,
                ])
            case is UnitVolume.Type:
                units = [UnitVolume]([
                    .liters, .milliliters, .centiliters, .deciliters, .kiloliters, .megaliters, .cubicMeters,
                    .cubicKilometers, .cubicCentimeters, .cubicMillimeters, .cubicInches, .cubicFeet, .cubicYards,
                    .cubicMiles, .acreFeet, .bushels, .teaspoons, .tablespoons, .fluidOunces, .cups, .pints, .quarts,
                    .gallons, .imperialTeaspoons, .imperialTablespoons, .imperialFluidOunces, .imperialPints,
                    .imperialQuarts, .imperialGallons, .metricCups,
                ])
            case is UnitEnergy.Type:
                units = [UnitEnergy]([.joules, .kilojoules, .kilocalories, .calories, .kilowattHours])
            case is UnitAngle.Type:
                units = [UnitAngle]([.degrees, .arcMinutes, .arcSeconds, .radians, .gradians, .revolutions])
            case is UnitPressure.Type:
                units = [UnitPressure]([
                    .newtonsPerMetersSquared, .gigapascals, .megapascals, .kilopascals, .hectopascals,
                    .inchesOfMercury, .bars, .millibars, .millimetersOfMercury, .poundsForcePerSquareInch,
                ])
            case is UnitPower.Type:
                units = [UnitPower]([
                    .watts, .terawatts, .gigawatts, .megawatts, .kilowatts, .milliwatts, .microwatts, .nanowatts,
                    .picowatts, .femtowatts, .horsepower,
                ])
            case is UnitFrequency.Type:
                units = [UnitFrequency]([
                    .hertz, .terahertz, .gigahertz, .megahertz, .kilohertz, .millihertz, .microhertz,
                    .nanohertz,
                ])
            default:
                units = (UnitType.self as? Dimension.Type).map { [$0.baseUnit()] } ?? []
            }
            return units.compactMap { $0 as? UnitType }
        }
    }
#endif
