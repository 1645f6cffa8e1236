import LodestoneCore
import LodestoneDomain
import LodestoneEncoding

/// `lodestone wetsuit`: what to wear in the water, from its temperature, the air's and the wind.
enum WetsuitCommand {
    static let help = """
        Usage: lodestone wetsuit --water C [--air C] [--wind M/S] [--json]

        The wetsuit for the water's temperature: none at 24 °C and over, a 2 mm shorty from 21,
        3/2 mm from 17, 4/3 mm from 14, 5/4 mm with boots from 11, 6/5 mm with hood, boots and
        gloves below 11 (each band includes its lower bound); one step thicker when air and water
        together are below 30 °C, one more in a wind of 8 m/s or more, never past the thickest.
        --json prints {"step":0..5,"text":".."}. The running device's station page and MQTT
        (wetsuit) give the same for the measured water, air and wind.

        Example:
          lodestone wetsuit --water 16.5 --air 12 --wind 9
        """

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["water", "air", "wind"], flags: ["json"]), command: "wetsuit")
        guard let water = try options.number("water", in: -2...40) else {
            throw UsageError(message: "wetsuit needs the water's temperature: --water C (-2 to 40)")
        }
        let air = try options.number("air", in: -60...60), wind = try options.number("wind", in: 0...80)
        let step = Wetsuit.step(water: water, air: air, wind: wind)
        if options.flags.contains("json") {
            var w = JSONObjectWriter()
            w.integer("step", step)
            w.string("text", Wetsuit.text(step: step))
            writeOut(w.finished + "\n")
        } else {
            writeOut("\(Wetsuit.text(step: step)) (step \(step) of 5)\n")
        }
        return 0
    }
}
