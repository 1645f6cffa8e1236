import LodestoneDomain
import Testing

/// Adaptive sampling over scripted timelines: sitting still, walking, driving, a battery
/// running low, and a CPU overload and its recovery.
@Suite struct AdaptiveSamplingTests {
    func run(
        _ sampler: inout AdaptiveSampler, _ motion: MotionState, seconds: Int, external: Bool? = nil,
        battery: Double? = nil, overruns: Int = 0, utilisation: Double = 0.2
    ) {
        for _ in 0..<seconds {
            _ = sampler.update(
                motion: motion, externalPower: external, batteryPercent: battery,
                overruns: overruns, utilisation: utilisation, interval: 1)
        }
    }

    @Test func ratesFollowTheMotionStateAfterItSettles() {
        var sampler = AdaptiveSampler(loopRateHz: 200)
        #expect(sampler.rates.imu == 100 && sampler.profile == "walking")
        run(&sampler, .still, seconds: 2)
        #expect(sampler.rates.imu == 100, "a pause at a crossing changes nothing")
        run(&sampler, .still, seconds: 2)
        #expect(sampler.profile == "still")
        #expect(sampler.rates == StreamRates(imu: 25, magnetometer: 10, barometer: 5, processing: 10, gpsInterval: 5))
        run(&sampler, .vehicle, seconds: 4)
        #expect(sampler.rates.gpsInterval == 0.1 && sampler.rates.imu == 100)
        run(&sampler, .running, seconds: 4)
        #expect(sampler.rates.imu == 200)
    }

    @Test func aLowBatteryCapsRatesWithHysteresis() {
        var sampler = AdaptiveSampler(loopRateHz: 200)
        run(&sampler, .running, seconds: 4, external: false, battery: 60)
        #expect(sampler.rates.imu == 200)
        run(&sampler, .running, seconds: 1, external: false, battery: 19)
        #expect(sampler.profile == "running/lowPower")
        #expect(sampler.rates.imu == 50 && sampler.rates.magnetometer == 10 && sampler.rates.gpsInterval == 2)
        run(&sampler, .running, seconds: 1, external: false, battery: 22)
        #expect(sampler.profile == "running/lowPower", "not back until 25%")
        run(&sampler, .running, seconds: 1, external: true, battery: 22)
        #expect(sampler.profile == "running", "plugged in")
        var user = AdaptiveSampler(loopRateHz: 200, power: PowerPolicy(userLowPower: true))
        run(&user, .walking, seconds: 1, external: true, battery: 100)
        #expect(user.profile == "walking/lowPower")
    }

    @Test func overloadShedsTheLowestPriorityFirstAndRecovers() {
        var sampler = AdaptiveSampler(loopRateHz: 200)
        run(&sampler, .walking, seconds: 1, overruns: 3, utilisation: 0.9)
        #expect(sampler.rates.processing == 25 && sampler.rates.imu == 100)
        #expect(sampler.profile == "walking+shed")
        run(&sampler, .walking, seconds: 3, overruns: 1, utilisation: 0.9)
        #expect(sampler.rates.barometer < 25 && sampler.rates.processing >= SamplingTable.floor.processing)
        // Light load: rates come back one step every 5 s, the most important first.
        run(&sampler, .walking, seconds: 60, utilisation: 0.2)
        #expect(sampler.rates == StreamRates(imu: 100, magnetometer: 50, barometer: 25, processing: 50, gpsInterval: 1))
        #expect(!sampler.shedder.isShedding)
    }

    @Test func ratesStayWithinFloorsAndTheLoopRate() {
        var table = SamplingTable.defaults
        table.rates[.running] = StreamRates(imu: 1000, magnetometer: 0.1, barometer: 0, processing: 5000, gpsInterval: 100)
        let rates = table.rates(for: .running, lowPower: false, loopRateHz: 200)
        #expect(rates.imu == 200 && rates.processing == 200)
        #expect(rates.magnetometer == SamplingTable.floor.magnetometer && rates.barometer == SamplingTable.floor.barometer)
        #expect(rates.gpsInterval == SamplingTable.floor.gpsInterval)
        var sampler = AdaptiveSampler(loopRateHz: 200)
        run(&sampler, .still, seconds: 10, overruns: 5, utilisation: 0.95)
        #expect(sampler.rates.imu >= SamplingTable.floor.imu && sampler.rates.barometer >= SamplingTable.floor.barometer)
    }
}
