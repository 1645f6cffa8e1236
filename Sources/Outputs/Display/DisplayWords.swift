import LodestoneCore
import LodestoneDomain

/// The display's and the terminal's fixed words, from the one table of words (its `label.`
/// entries) in the language chosen: a page says `model.say("distance")`, or with figures
/// `model.say("upDown", "14", "3")`. A key the table lacks reads as its words spelled out,
/// never as a key; a test fails on it (`DisplayGermanTests`), not a person's page.
extension Language {
    func say(_ key: String, _ figures: String...) -> String { say(key, figures: figures) }

    func say(_ key: String, figures: [String]) -> String {
        Words.lookup("label." + key, self, figures) ?? Words.spelledOut(key)
    }
}

extension DisplayModel {
    /// The table's words for `label.<key>` in the model's language, the figures put in.
    func say(_ key: String, _ figures: String...) -> String { language.say(key, figures: figures) }

    /// The compass point of `heading` as the model's language writes it ("NO" in German).
    func point(_ heading: Double, division: CompassPoint.Division = .sixteen) -> String {
        Words.text("point", CompassPoint.name(heading, division: division), language)
    }
}
