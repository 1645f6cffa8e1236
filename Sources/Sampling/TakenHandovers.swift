import LodestoneCore
import LodestoneDomain

/// What the sampling thread takes from the output side, each through its `Handover`: the
/// pipeline's only inputs besides the chips, the receiver and the clock, and so what a
/// recording must hold besides them for a replay to ask the same questions.
final class TakenHandovers {
    let expectedField = Handover<ExpectedField?>(kind: HandoverKind.expectedField, initial: nil)
    let magnetometerCalibration = Handover<MagnetometerCalibration?>(kind: HandoverKind.magnetometerCalibration, initial: nil)
    let accelerometerCalibration = Handover<AccelerometerCalibration?>(kind: HandoverKind.accelerometerCalibration, initial: nil)
    let imuRate = Handover<UInt64>(kind: HandoverKind.imuChipRate, initial: 0)
    let magnetometerRate = Handover<UInt64>(kind: HandoverKind.magnetometerChipRate, initial: 0)
    let fixInterval = Handover<UInt64>(kind: HandoverKind.fixInterval, initial: 1.0.bitPattern)

    /// Queues `item` on `ring` (named by `id` in the recording). A push the ring refuses (the
    /// output side far behind) is noted in a recording; a replay refuses the pushes the
    /// recorded run lost, at the same places, so its output side follows the same samples
    /// and states and publishes the same reports, missing the same slots.
    func queue<Element>(_ item: Element, on ring: SPSCRing<Element>, id: UInt8) {
        guard let ledger else {
            ring.push(item)
            return
        }
        if ledger.isReplaying {
            if ledger.replayed(kind: HandoverKind.ringDrop) != nil { return }
            ring.push(item)
        } else if !ring.push(item) {
            withUnsafeBytes(of: id) { ledger.note(kind: HandoverKind.ringDrop, payload: $0) }
        }
    }

    var ledger: (any HandoverLedger)? {
        didSet {
            expectedField.ledger = ledger
            magnetometerCalibration.ledger = ledger
            accelerometerCalibration.ledger = ledger
            imuRate.ledger = ledger
            magnetometerRate.ledger = ledger
            fixInterval.ledger = ledger
        }
    }
}
