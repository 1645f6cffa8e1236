import LodestoneCore
import LodestoneDomain
import LodestoneSampling

/// What the output side reads from the sampling side: rings of samples and the latest state.
public protocol SamplingOutputs: AnyObject {
    var imuRing: SPSCRing<ImuSample> { get }
    var magneticRing: SPSCRing<MagneticSample> { get }
    var pressureRing: SPSCRing<PressureSample> { get }
    var fixRing: SPSCRing<GPSFix> { get }
    var skyRing: SPSCRing<SkyItem> { get }
    var sentenceRing: SPSCRing<RawSentence> { get }
    var stateRing: SPSCRing<StateSnapshot> { get }
    var problems: SensorProblems { get }
}

extension SensorPipeline: SamplingOutputs {}
