import LodestoneCore
import LodestoneEncoding
import Testing
@testable import LodestoneSettings
import LodestoneBoard

/// A setting changed from the web app in the configuration file's text: the rest of the file
/// kept as the person wrote it, the file read back by the same reader to the new value, and
/// every setting the page offers named in the table of words.
@Suite struct ConfigurationFileEditTests {
    static let file = #"{"// units": "metric, imperial or nautical", "theme": "day", "sounds": {"mute": false, "alert": "alarm"}}"#

    @Test func aSettingIsChangedAndTheRestKept() throws {
        let edited = try ConfigurationFileEdit.setting("sounds.mute", to: .bool(true), in: Self.file)
        let json = try JSONValue.parse(edited)
        #expect(json["sounds"]?["mute"]?.boolValue == true && json["sounds"]?["alert"]?.stringValue == "alarm")
        #expect(json["theme"]?.stringValue == "day" && json["// units"]?.stringValue == "metric, imperial or nautical")
        // In the file's order, a key a line.
        #expect(edited.hasPrefix("{\n  \"// units\": "), "\(edited)")
        var configuration = Configuration()
        try configuration.load(text: edited, file: "edited.json")
        #expect(configuration.sounds.mute)
    }

    @Test func aKeyTheFileLacksIsAddedInItsObject() throws {
        let edited = try ConfigurationFileEdit.setting("rates.imu", to: .number(50), in: Self.file)
        var configuration = Configuration()
        try configuration.load(text: edited, file: "edited.json")
        #expect(configuration.imuRateHz == 50)
        let unset = try ConfigurationFileEdit.setting("units", to: .null, in: "{}")
        #expect(try JSONValue.parse(unset)["units"] == .null)
    }

    @Test func aFileThatIsNotAnObjectIsRefused() {
        #expect(throws: ConfigurationError.self) { try ConfigurationFileEdit.setting("theme", to: .string("night"), in: "[1, 2]") }
        #expect(throws: ConfigurationError.self) { try ConfigurationFileEdit.setting("theme", to: .string("night"), in: "{\"theme\":") }
    }

    /// The web app's device page labels each live setting and its choices from the table of
    /// words, in English and German: a setting made live without its words fails here.
    @Test func everyLiveSettingHasItsWords() {
        for setting in Setting.all where setting.reload == .live {
            #expect(Words.lookup("setting." + setting.key) != nil, "no words for setting.\(setting.key) in the table of words")
            guard setting.key != "page" else { continue }
            for choice in setting.choices ?? [] {
                #expect(Words.lookup("choice." + choice) != nil, "no words for choice.\(choice) (\(setting.key)) in the table of words")
            }
        }
    }
}
