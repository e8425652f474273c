import Foundation
import RHRCore
@testable import RHRDashboard
import RHRScreen
import Testing

/// The trend aids on screen: the 7-day mean, the usual range (background with colour, edges without), the
/// whiskers, the comparison view; each named in the header and the legend, each on its key.
@Suite("Aids: the 7-day mean, the usual range, whiskers and the comparison on screen")
struct AidsTests {
    /// Style codes for the band and the cursor column: "!" plain on the band, "%" muted on it, "A" "B" "C"
    /// writers 1–3 on it, "o" "j" "w" writers 1–3 reversed (the cursor column), "O" "J" "W" reversed on the band.
    static let codes: [Character: Style] = {
        var codes = StyleMap.writers("ojw", .reverse)
        codes["!"] = Style(background: .band)
        codes["%"] = Style(tint: .muted, background: .band)
        codes["&"] = Style(tint: .muted, .reverse, background: .band)
        for (i, c) in "ABC".enumerated() { codes[c] = Style(tint: .series(i), background: .band) }
        for (i, c) in "OJW".enumerated() { codes[c] = Style(tint: .series(i), .reverse, background: .band) }
        return codes
    }()
}

extension AidsTests {
    @Test("m and b: each writer's 7-day mean as its line over dots of the daily values, Oura's usual range behind, both named")
    func meanAndBand() {
        let state = Fixture.state(pressing: .character("m"), .character("b"))
        #expect(state.showMean && state.showBand && state.bandWriterIndex == 0, "the band follows the writer with most days")
        let buffer = Fixture.render(state)
        let expected = [
            " rhr   12 Jan – 12 Mar 2026             mean · range  one value per day: latest ",
            " Health Connect as of 12 Mar 08:00  ·  HealthKit as of 12 Mar 21:00 (+01:00)    ",
            " Resting heart rate, bpm  1 column a day                today ▸ Thu 12 Mar 2026 ",
            "    │                                       ⡀              ⡀  ⠂                 ",
            " 65 ┤   ⠄  ⠁⡀ ⠄  ⡀     ⡀  ⠁  ⠁  ⡄        ⠄     ⠁        ⡀⡀                      ",
            "    │⠄ ⠂ ⠂ ⠄⣀⣀◆⡀                  ⠂⣀⣀⣂⡄             ⠄ ⠄ ⠄⣀⣀⣄⡀ ◆                 ",
            " 60 ┤ ⠄⡀⠤⡒⠖⠉⠄⠄⡀⠈⡉⡑⠢⡀⠁      ⠄ ⠁◆⠥⠒⠓⠉⠄⠁⡀⡈⡕⠢⠤⣄⡀⡀  ⡀  ⠄⡀ ⠅⣀⠤⠊ ⠁ ⡈⠍⠉⠑◇               ",
            "    │⠄  ⣀⣀⣀⠦⠒⠖⠒⠒⠖⠒⠦⠮⢕●⡦⢄⡄  ⠤⠒⠉  ⠄ ⠄ ⠄●⣄⠤⠤⠦⠒⠞⠶⢦◆⢦⣤⣆⣀⡠⠖⠉        ⠂◇●               ",
            " 55 ┤⡀⠁ ⠁ ⠁    ⠁  ⠁ ⡂⠃⠈⡓⠢⠤⡤⠥⢄⣂⣀⣂⠤⠦⠤⡒⠊   ⠁  ⠁ ⡂⠁ ⠃ ⠉⠋⠉●⠢⢄⣀⠥⢄⡂ ⡢⠒⠒●               ",
            "    │                    ⠄  ⠁ ⠄                   ⠁  ⠁ ⠄  ⠁                     ",
            "    └───┬──────┬─────────┬──────┬──────┬──────┬──────┬──────×────               ",
            "        15 Jan 22 Jan    1 Feb  8 Feb  15 Feb 22 Feb 1 Mar   12 Mar             ",
            " Health Connect: 1 ● Oura  HealthKit: 2 ◆ Jane’s Apple Watch  3 ■ Withings      ",
            " ◇ provisional   × out of range   lines: 7-day mean       usual range (Oura)    ",
            " Per source      1 ● Oura             2 ◆ Jane’s Apple Watch    3 ■ Withings    ",
            " latest          Health Connect       HealthKit                 HealthKit       ",
            "                 com.ouraring.oura                                              ",
            " Mon  9 Mar 2026    54                   59                                     ",
            " Tue 10 Mar 2026    57 o                 60                        67           ",
            " Wed 11 Mar 2026    54                   57 p                                   ",
            "▸Thu 12 Mar 2026    56                   58 p                                   ",
            " p provisional · o offset assumed · x out of range · d implausible date         ",
            " Usual range of Oura: f follows another writer.                                 ",
            " ←→ day  +- zoom  a aggregation  1–9 writers  Tab focus  / date  ? help  q quit ",
        ]
        #expect(buffer.lines == expected)
        // The usual range is a background ("!", "A"…: plain or a writer on the band), from the 14th day with a value;
        // the header names both aids in the accent colour; the legend shows the band's swatch.
        let styles = [
            "TTTTT                                   aaaaaaaaaaaaaabbbbbbbbbbbbbbbbbbbbbbbbbb",
            "mbbbbbbbbbbbbbbmmmmmmm            mmmmmbbbbbbbbbmmmmmmm            mmmmmmmmm    ",
            "ttttttttttttttttttttttttmmmmmmmmmmmmmmmm                mmmmmmbbbbbbbbbbbbbbbbbb",
            "    m                                       3              3  3 M               ",
            "mmm m   3  32 3  3     3  3  3  2        3     3        32      M               ",
            "    m3 2 2 22222                  22222             2 2 22222 2 M               ",
            "mmm m 212122121221BBC!!    2 2222222212122121  1  32 2222 2 2222j               ",
            "    m2  1111111111AAAAABB!!BBB!!A!A!AAAAAAAAAABAAAABAB!!!!!!!!ABO               ",
            "mmm m11 1 1    1  A!AAAAAAAAAAAAAAAAA!!!A!!B!AB!A!AAAAAAAAAA!AAAO               ",
            "    m                    1  1 1                   1  1 1  1     M               ",
            "    mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmbmmmM               ",
            "        mmmmmm mmmmmm    mmmmm  mmmmm  mmmmmm mmmmmm mmmmm   TTTTTT             ",
            " mmmmmmmmmmmmmmmmmm1       mmmmmmmmmmmmm2                     mm3               ",
            " 2               b                                    AAA                       ",
            "bbbbbbbbbbb      mm11bbbb             mm22bbbbbbbbbbbbbbbbbb    mm33bbbbbbbb    ",
            "mmmmmmm          mmmmmmmmmmmmmm       mmmmmmmmm                 mmmmmmmmm       ",
            "                 mmmmmmmmmmmmmmmmm                                              ",
            "T                                                                               ",
            "T                     mm                                                        ",
            "T                                          mm                                   ",
            "TRRRRRRRRRRRRRRRrrrrrrrrrrrrrrrrrrrrrrrrrrrMMrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr",
            "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm         ",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa                                 ",
            "bbbmmmmmbbbmmmmmmbbmmmmmmmmmmmmmbbbbmmmmmmmmmbbbbmmmmmmmbbmmmmmmbbmmmmmmbbmmmmmm",
        ]
        for (y, row) in styles.enumerated() {
            #expect(StyleMap.row(buffer, y, extra: Self.codes) == row, "row \(y)")
        }
    }

    @Test("Without colour the usual range is its two edges (┄), never a background")
    func bandWithoutColour() {
        var state = Fixture.state()
        state.capabilities.color = false
        Fixture.press(&state, .character("b"))
        let buffer = Fixture.render(state)
        let expected = [
            " rhr   12 Jan – 12 Mar 2026      usual range of Oura  one value per day: latest ",
            " Health Connect as of 12 Mar 08:00  ·  HealthKit as of 12 Mar 21:00 (+01:00)    ",
            " Resting heart rate, bpm  1 column a day                today ▸ Thu 12 Mar 2026 ",
            "    │                                       ■              ■  ■                 ",
            " 65 ┤   ■  ■⡀ ■  ■     ■  ■  ■  ■        ■     ■        ■⡀                      ",
            "    │■⢀⢆⢀⢆ ⡜⢱ ◆                ⡰⠱⣠⢆ ⢠⢆■             ⣄ ⣄ ⡜⠱⣀⡄                    ",
            " 60 ┤ ⡎⡈⠎⡈⠞⢀⢌⠞⣸ ⡰⣣┄┄■┄┄    ⢄⢠⠳◆⠁ ⠁⠈■⠁●⣄⣄ ⢀⣄ ⡀  ⡀  ■⡜⠈■⠈⠞  ⠁⠘⣄⠔◆ ◇               ",
            "    │⠜⡰⠱⡰⠱⣠⠊⠈⠞⠱⣋⠜⠹⣦⣦ ⢠⣦⢀⠄┄┄⠈⠃┄┄⢀⢄⢀⡄┄⡜⠘⠜⠹⣦⠊⠹⣞⣵⢀⢼⢳⢠⣦⡰⢁⡄┄┄┄┄┄┄┄┄⢀⢦◇●               ",
            " 55 ┤⡰⠁ ⠁ ⠁    ⠁  ⠁⠘⡷●⠘⡯⢆┄⡰⠱⣠⢆⢀⠎⠈⠊⠘⡜┄┄┄┄⠁┄┄⠁⠘⡿◆┄⠋⠸⣡⠊⠸⣠⢆┄⡰⠱⣠⠂┄⠊┄⠋┄               ",
            "    │                   ⠈⠞  ⠁⠈⠎                   ⠁  ●⠈⠞  ⠁                     ",
            "    └───┬──────┬─────────┬──────┬──────┬──────┬──────┬──────×────               ",
            "        15 Jan 22 Jan    1 Feb  8 Feb  15 Feb 22 Feb 1 Mar   12 Mar             ",
            " Health Connect: 1 ● Oura  HealthKit: 2 ◆ Jane’s Apple Watch  3 ■ Withings      ",
        ]
        #expect(Array(buffer.lines.prefix(13)) == expected)
        let styles = [
            "TTTTT                            aaaaaaaaaaaaaaaaaaaaabbbbbbbbbbbbbbbbbbbbbbbbbb",
            "mbbbbbbbbbbbbbbmmmmmmm            mmmmmbbbbbbbbbmmmmmmm            mmmmmmmmm    ",
            "ttttttttttttttttttttttttmmmmmmmmmmmmmmmm                mmmmmmbbbbbbbbbbbbbbbbbb",
            "    m                                       3              3  3 M               ",
            "mmm m   3  32 3  3     3  3  3  3        3     3        32      M               ",
            "    m32222 22 2                2222 223             2 2 2222    M               ",
            "mmm m 212121121 2111311    22222 2232121 11 1  1  322322  22222 j               ",
            "    m211111111111111 1122112211111111111111111111121111111111112o               ",
            "mmm m11 1 1    1  1111111111111111111111111221211111111111111111o               ",
            "    m                   11  111                   1  111  1     M               ",
            "    mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmbmmmM               ",
            "        mmmmmm mmmmmm    mmmmm  mmmmm  mmmmmm mmmmmm mmmmm   TTTTTT             ",
            " mmmmmmmmmmmmmmmmmm1       mmmmmmmmmmmmm2                     mm3               ",
        ]
        #expect(StyleMap.rows(buffer, 0...12, extra: Self.codes) == styles)
        #expect(!buffer.cells.contains { $0.style.background != nil })
    }

    @Test("w: whiskers from each week's lowest to highest day; at day zoom it says where they show")
    func whiskers() {
        var state = Fixture.state(pressing: .character("w"))
        #expect(state.showWhiskers && state.message?.hasPrefix("Whiskers show at week and month zoom") == true)
        Fixture.press(&state, .character("-"))
        let buffer = Fixture.render(state)
        let expected = [
            " rhr   12 Jan – 12 Mar 2026                 whiskers  one value per day: latest ",
            " Health Connect as of 12 Mar 08:00  ·  HealthKit as of 12 Mar 21:00 (+01:00)    ",
            " Resting heart rate, bpm  8 columns a week, weekly medians    ▸ Thu 12 Mar 2026 ",
            "    │                                           ⢀               ⢀   ⣀⣀⠤⠤■       ",
            " 65 ┤   ■⠤⠤⠤⠤⠤⠤⠤■⢄⣀⡀    ⢀   ⣀⡠⠤⠒■⠒⠤⣀         ⢀⡠⠔■⠒⠤⣀    ⢸     ⣀⠤■⠒⠉⠉            ",
            "    │   ⢸       ⢸  ⠈⠉⠑⠒⠢■⠔⠒⠉    ⢸   ⠉⠒⠤⣀⢰⢀⡠⠔⠊⠁      ⠉⠒⠤⣀⢸⢀⡠⠔⠒⠉ ⣀◆⢀⢀             ",
            " 60 ┤   ◆⠤⠤⠤⠤⠤⠤⠤◆⢄⣀     ⠈    ⢀⣀⠤◆⠒⠒⠒⠒⠉⠉⠉◆⠑⠢⠤⣀⡀  ⢠       ■⠁⢀⡠⠤⠒⠉ ⢸  ⠈⠈⠐⠐⠠◇       ",
            "    │   ⢸  ⣀⣀⣀⣀⠤●⠤⣀⣉⡑⠒⠢⠤◆⡠⠤⠒⠉⠁  ⢸    ⣀⣀⡠●⠤⠤⠤⠤⠬⠵⠶●⠤⣤⣤⡤⠒⠒⠒◆⠊⠁             ⢸       ",
            " 55 ┤   ●⠉⠉     ⠈   ⠈⠉⠉⠑●⠒⠒⠒⠒⠒⠒⠒●⠒⠉⠉⠉   ⢸       ⢸   ⠈⠉⠉⠑●⠒⠒⠒⠢⠤⠤⠤●⠤⠤⠒⠒⠒⠒⠉●       ",
            "    │                   ⠸       ⠸                       ⠈       ⠸               ",
            "    └───────────────────┬───────────────────────────────┬───────×────────────   ",
            "                        Feb                             Mar       week of 9 Mar ",
            " Health Connect: 1 ● Oura  HealthKit: 2 ◆ Jane’s Apple Watch  3 ■ Withings      ",
            " ◇ provisional   × out of range   ⡇ lowest to highest day                       ",
        ]
        #expect(Array(buffer.lines.prefix(14)) == expected)
        let styles = [
            "TTTTT                                       aaaaaaaaaabbbbbbbbbbbbbbbbbbbbbbbbbb",
            "mbbbbbbbbbbbbbbmmmmmmm            mmmmmbbbbbbbbbmmmmmmm            mmmmmmmmm    ",
            "ttttttttttttttttttttttttmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm    bbbbbbbbbbbbbbbbbb",
            "    m                                           3               3   3333w       ",
            "mmm m   333333333333    3   33333333         3333333    3     333333    M       ",
            "    m   2       2  333333333    2   3333233333      3333233333 2222     M       ",
            "mmm m   22222222222     3    22222222222222222  1       3322222 2  22222j       ",
            "    m   1  1111111111222222222  1    1111111111111111222222             o       ",
            "mmm m   111     1   11111111111111111   1       1   11111111111111111111o       ",
            "    m                   1       1                       1       1       M       ",
            "    mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmbmmmmmmmMmmmm   ",
            "                        mmm                             mmm       TTTTTTTTTTTTT ",
            " mmmmmmmmmmmmmmmmmm1       mmmmmmmmmmmmm2                     mm3               ",
            " 2               b                m                                             ",
        ]
        #expect(StyleMap.rows(buffer, 0...13, extra: Self.codes) == styles)
        Fixture.press(&state, .character("w"))
        #expect(!Fixture.screen(state)[0].contains("whiskers"))
    }

    @Test("v: the comparison names both writers and stores, the mean difference and its spread; Esc, q or v close it")
    func comparison() {
        var state = Fixture.state(pressing: .character("v"))
        #expect(state.overlay == .comparison)
        let buffer = Fixture.render(state)
        let expected = [
            " rhr   how far apart the writers read     lines 1–22 of 24 · Esc, q or v closes ",
            "                                                                                ",
            "  For each pair of writers with at least 14 days on which both have a value     ",
            "  (one value per day: latest): the mean of the daily differences, first minus   ",
            "  second, and their spread (standard deviation), beside what each one's number  ",
            "  is as its maker documents it (d lists them). It says how far apart two        ",
            "  writers read, not which one is right.                                         ",
            "                                                                                ",
            "  1 ● Oura (Health Connect)  and  2 ◆ Jane’s Apple Watch (HealthKit)            ",
            "      mean difference −3.3 bpm  (Oura minus Jane’s Apple Watch)                 ",
            "      spread 2.7 bpm  57 shared days  12 Jan – 12 Mar 2026                      ",
            "      Oura reads 3.3 bpm lower on average: lowest 10-minute night average       ",
            "        vs. all-day rest estimate                                               ",
            "                                                                                ",
            "  1 ● Oura (Health Connect)  and  3 ■ Withings (HealthKit)                      ",
            "      mean difference −8.2 bpm  (Oura minus Withings)  spread 2.1 bpm           ",
            "      20 shared days  12 Jan – 10 Mar 2026                                      ",
            "      Oura reads 8.2 bpm lower on average: lowest 10-minute night average       ",
            "        vs. not documented by Withings                                          ",
            "                                                                                ",
            "  2 ◆ Jane’s Apple Watch (HealthKit)  and  3 ■ Withings (HealthKit)             ",
            "      mean difference −4.6 bpm  (Jane’s Apple Watch minus Withings)             ",
            "      spread 2.8 bpm  19 shared days  12 Jan – 10 Mar 2026                      ",
            " Descriptive only: differences between writers, not a judgement of either.      ",
        ]
        #expect(buffer.lines == expected)
        let styles = [
            "TTTTTbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb     mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm",
            "                                                                                ",
            "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm     ",
            "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm   ",
            "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm  ",
            "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm        ",
            "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm                                         ",
            "                                                                                ",
            "  mm1bbbbbmmmmmmmmmmmmmmmmm  mmm  mm2bbbbbbbbbbbbbbbbbbbmmmmmmmmmmmm            ",
            "      bbbbbbbbbbbbbbbbbbbbbbbb  mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm                 ",
            "      bbbbbbbbbbbbbb  mmmmmmmmmmmmmm  mmmmmmmmmmmmmmmmmmmm                      ",
            "                                                                                ",
            "                                                                                ",
            "                                                                                ",
            "  mm1bbbbbmmmmmmmmmmmmmmmmm  mmm  mm3bbbbbbbbbmmmmmmmmmmmm                      ",
            "      bbbbbbbbbbbbbbbbbbbbbbbb  mmmmmmmmmmmmmmmmmmmmm  bbbbbbbbbbbbbb           ",
            "      mmmmmmmmmmmmmm  mmmmmmmmmmmmmmmmmmmm                                      ",
            "                                                                                ",
            "                                                                                ",
            "                                                                                ",
            "  mm2bbbbbbbbbbbbbbbbbbbmmmmmmmmmmmm  mmm  mm3bbbbbbbbbmmmmmmmmmmmm             ",
            "      bbbbbbbbbbbbbbbbbbbbbbbb  mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm             ",
            "      bbbbbbbbbbbbbb  mmmmmmmmmmmmmm  mmmmmmmmmmmmmmmmmmmm                      ",
            "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm      ",
        ]
        #expect(StyleMap.rows(buffer, 0...23) == styles)
        for key in [Key.escape, .character("q"), .character("v")] {
            Fixture.press(&state, .character("v"))
            #expect(Fixture.press(&state, key) == nil)
            #expect(state.overlay == .none)
        }
        // At 60×16 the title row still says how to close it (the position gives way first).
        var small = ManyWriters.state(60, 16)
        Fixture.press(&small, .character("v"))
        #expect(Fixture.row(small, 0) == " rhr   how far apart the writers read    Esc, q or v closes ")
        // Under lowest, the differences of the lowest values; a lone writer has nothing to compare.
        Fixture.press(&state, .character("a"), .character("v"))
        #expect(Fixture.screen(state).joined().contains("(one value per day: lowest)"))
        var one = Fixture.state(DashboardData(samples: Fixture.standard().samples.filter { $0.sample.writer == Fixture.oura }))
        Fixture.press(&one, .character("v"))
        #expect(Fixture.screen(one).joined().contains("There is only one writer: nothing to compare."))
    }

    @Test("f moves the usual range to the next visible writer and turns it on; the header follows")
    func bandWriter() {
        var state = Fixture.state(pressing: .character("f"))
        #expect(state.showBand && state.bandWriterIndex == 1)
        #expect(state.message == "Usual range of Jane’s Apple Watch.")
        #expect(Fixture.row(state, 0).contains("range"))
        Fixture.press(&state, .character("2"))
        #expect(state.bandWriterIndex == 0, "a hidden writer's band follows the first visible one with most days")
        Fixture.press(&state, .character("f"), .character("f"))
        #expect(state.bandWriterIndex == 0, "hidden writers are skipped")
        // Withings has too few days: the legend says the band is not there yet, and why.
        var wide = Fixture.state(size: TerminalSize(width: 200, height: 60))
        Fixture.press(&wide, .character("f"), .character("f"))
        #expect(wide.bandWriterIndex == 2)
        #expect(Fixture.screen(wide).contains { $0.contains("usual range of Withings: not here (it needs 14 days with a value in 28)") })
    }
}
