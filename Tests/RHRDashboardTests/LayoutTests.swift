import Foundation
import RHRCore
@testable import RHRDashboard
import RHRScreen
import Testing

/// Each pane gets what it needs before any gets more, at the four sizes people use, with names of real
/// length (`LayoutFixture`: a 32-character package, a CJK app name and an emoji, each wide character two columns).
@Suite("Layout: every pane what it needs first, at 80×24, 120×40, 200×60 and 300×80")
struct LayoutTests {
    /// The screen's rows from the chart's date axis down, and the three above the plot: what the layout places (the
    /// plot's braille is the chart's own, tested with it).
    static func placed(_ lines: [String], axis: Int) -> [String] { Array(lines[0...2]) + Array(lines[axis...]) }

    @Test("80×24: the chart its seven rows and the legend its three; the columns share what is left evenly")
    func screen80() {
        #expect(Fixture.screen(LayoutFixture.state(80, 24)) == [
            " rhr   resting heart rate  20 Feb – 12 Mar 2026       one value per day: latest ",
            " Health Connect as of 12 Mar 08:00  ·  HealthKit as of 12 Mar 21:00 (+01:00)    ",
            " Resting heart rate, bpm  3 columns a day               today ▸ Thu 12 Mar 2026 ",
            " 65 ┤       ▼                             ▼                                     ",
            "    │ ⠑⢄   ⣀⢄⡀    ▼        ⡀              ⡀     ▲ ⣀⢄⡀   ⢀⡀        ▼             ",
            " 60 ┤ ▼ ⢑⠴⠮⠒⠢⡈⠒⠤⠤⠒▲⡀⡠●⢄⡀▼⠤⠊⠈⠑⠢▼⠤⠒⠂  ▼   ⢠⠊⠈⠑⠢⠤⠒⢉⠜⢪  ⠈⠑●⠉⠁⠈⢢⢀▼   ⣀⡠●             ",
            "    │  ⡰⠁  ⣀◆⡀⢢⣤⣄⣤◆⠭⠲⣑⣄⣈⣁⣀⠤⢄        ⣀ ⢀●⠓⣊⠵⠲⢎⡱⡖⠁  ⠑⠤⠒⠊⠉⠉⣀◆⣴⠑⠤⠓⠪⣉⣀⠤■             ",
            " 55 ┤ ⠪⡀⢀◆⠊ ⢀⠈⠒◆⠒⠉⠈⠢⡀  ⠑■⣀⠤◆⡀⢖⠢⣄⠤▲⣤⡊⢀⠝⠑■⠉⢀◆⡀  ⢀⠤◆⢄⡀⢄⣀⠤◆⠉⡠■⠑⢄⠄⣀⡠◆⠄               ",
            "    │ ◆⠒⠁■⠤⠒⠁       ⠈◆⠒⠉◆   ⠈⠢◆⠤⠔◆⡀⠈⠁  ◆⠒⠁ ⠈⠑◆⠁ ⠉ ⠈◆⠑⠢⡠⠊    ◆   ⠑⠢◆             ",
            " 50 ┤                             ⠈⠑◆⠒⠉                                         ",
            "    └─┬──┬──┬──┬──┬──┬──┬──┬──┬──┬──┬──┬──┬──┬──┬──┬──┬──┬──┬──┬──┬─            ",
            "      20 21 22 Feb   25 26 27 28 1 Mar 3  4  5  6  7  8 Mar    12 Mar           ",
            " Health Connect: 1 ● 华为运动健康  2 ◆ Oura  3 ■ Samsung Health                 ",
            " HealthKit: 4 ▲ Jane’s Apple Watch  5 ▼ 🏃 Running Club                         ",
            " ◆ Oura in full (f: next)   △ provisional   ◆ lowest 10-minute night average    ",
            " Per source      1 ● 华为运…  2 ◆ Oura     3 ■ Samsung… 4 ▲ Jane’s… 5 ▼ 🏃 Run… ",
            " latest          Health Conn… Health Conn… Health Conn… HealthKit   HealthKit   ",
            "                 com.huawei.… com.ourarin… com.samsung… com.apple.…             ",
            " Mon  9 Mar 2026    62           58           56           59                   ",
            " Tue 10 Mar 2026    58           54 o         60           55          61       ",
            " Wed 11 Mar 2026    59           55           57           56 p                 ",
            "▸Thu 12 Mar 2026    60           52           58           53 p        62       ",
            " p provisional · o offset assumed · x out of range · d implausible date         ",
            " ←→ day  +- zoom  a aggregation  1–9 writers  Tab focus  / date  ? help  q quit ",
        ])
    }

    @Test("120×40: headings whole where they fit (the packages the most they can), the detail pane below the columns")
    func screen120() {
        #expect(Fixture.screen(LayoutFixture.state(120, 40)) == [
            " rhr   resting heart rate  20 Feb – 12 Mar 2026                                               one value per day: latest ",
            " Health Connect as of 12 Mar 08:00 +01:00  ·  HealthKit as of 12 Mar 21:00 +01:00                                       ",
            " Resting heart rate, bpm  5 columns a day                                                       today ▸ Thu 12 Mar 2026 ",
            "    │            ▼                                                 ▼                                                    ",
            " 65 ┤                                                                                                                   ",
            "    │  ⠑⡄                  ▼                                                                                            ",
            "    │   ⠈⢢     ⢀⠔▲⢄                       ⡀                        ▲         ▼  ⢀⠔⠑⠢⢄      ⢀⡀              ▼            ",
            "    │     ⠑⡄ ⡠⠒⣁⡠⢄ ⠑⠢⡀   ⣀⡠⢄   ⢀⢄⡀      ⡠⠊⠈⠑⠢⣀    ⣀⡠⠄    ▼       ⢀⠎⠈⠑⠢⣀  ⢀⡠⠒⠉⠈⣦⠒⠁    ⠉⠒●⠒⠒⠉⠁⠈⢆   ▼                      ",
            " 60 ┤  ▼   ⡨⠚⠉⠉   ⠣⡀ ⠈⠒⠉⠉   ⠣⣀⠔⠁ ⠈⠑⠤⣀▼⠔⠉      ⠉▼⠉⠉              ⡰⠁     ⠉⠊⠁  ⡠⠊ ⠱⡀      ▼      ⠱⡀⡠⠢⡀    ⣀⣀⠤⠔●            ",
            "    │    ⢀⠔⠁       ⠘⢄      ⢀⠔⠙⣤⠒⠑⡄   ●                        ⢀⣎⠤⠔⠊⠑⣢⡤⠔⠊■⡀⡠⠊    ⠈⢆ ⣀⠤⠔⠊⠉⠉⠉⠉⠉⠑⡄⢀⠜⢇ ⣈⠦⡔⠊●                 ",
            "    │   ⡠⠊     ⢀⠔◆⢄  ⡷●⠶⠦⠶⢎◆⠔⠉ ⠣▲⣈⣢⣀⣀⣀⠤⠤⠒⠊⠑⢄             ■   ⡔● ⢀⠤⠒⠉ ⠈⠑⠤●⠚⡄       ▲      ⢀⠤⠒◆⢄⢪  ⠉  ⠈⠢⣀⠤⠤⠒⠊■            ",
            "    │  ⢔⠁    ⡠⠒⠁   ⠑⠢⡀ ⢀⡠⠒⠉⠈⢢      ⠑⡄    ⣀◆⠈⠢⣀⡠⢄   ⣀▲⡀ ⢀⠎ ⠉⡱⠚⠢⠔⠊⠁         ⠈⢆⢀◆⡀       ⣀◆⠊⠁ ⢀⠔⠈⠢⡀⡄   ⡀⡀△                 ",
            " 55 ┤   ⠣⡀ ⡠◆    ⢀⠜  ⠈◆⠁     ⠑⢄     ⠈⢀⡠⠔⠉⠒■⠣⡀⠈⢆⢀⡱⢔⡉  ⢈⠕⠥⣀⢀⠜       ⡠◆⢄⡀    ⣀⠔⠁ ⠈⠑⠤⣀⢀⡠⠔⠉    ⡠⠃   ⠈⢆▲⣀⣀⠤⠔◆⡀⠄⡀              ",
            "    │    ⡠⠊    ⡠⠒⠁             ⠣◆⠤⠤⠒⠊◆      ⠘⢄ ⠁  ⠈⢀◆⠊   ⠁      ⡠⠊   ⠈⠒⠤◆⠊   ⠉    ◆⠈⠢⡀  ⢀⠜       ◆     ⠈⠢⡀⠂△            ",
            "    │  ◆⠊  ⠣⡠⠔⠉                               ⠣◆⠤⠒⠊⠁⠈⠢⡀       ◆⠊                     ⠈⠢■⠃                ⠈⠢◆            ",
            "    │                                                 ⠈⠢⡀ ⢀⡠⠒⠉                                                          ",
            " 50 ┤                                                   ⠈◆⠁                                                             ",
            "    └──┬────┬────┬────┬────┬────┬────┬────┬────┬────┬────┬────┬────┬────┬────┬────┬────┬────┬────┬────┬────┬──          ",
            "       20   21   22 Feb    24   25   26   27   28   1 Mar     3    4    5    6    7    8 Mar     10     12 Mar          ",
            " Health Connect: 1 ● 华为运动健康  2 ◆ Oura  3 ■ Samsung Health  HealthKit: 4 ▲ Jane’s Apple Watch  5 ▼ 🏃 Running Club ",
            " ◆ Oura in full, the others dimmed (f: next)   △ provisional: Apple may still replace this estimate                     ",
            " Per source      1 ● 华为运动健康  2 ◆ Oura          3 ■ Samsung Health      4 ▲ Jane’s Apple Watch 5 ▼ 🏃 Running Club ",
            " latest          Health Connect    Health Connect    Health Connect          HealthKit              HealthKit           ",
            "                 com.huawei.health com.ouraring.oura com.samsung.android.we… com.apple.health.7A1B…                     ",
            " Thu  5 Mar 2026    57                53                59                      60                                      ",
            " Fri  6 Mar 2026    60                56                54                      62                     62               ",
            " Sat  7 Mar 2026    63                54                55                      58                                      ",
            " Sun  8 Mar 2026    61                56                52                      59                     60               ",
            " Mon  9 Mar 2026    62                58                56                      59                                      ",
            " Tue 10 Mar 2026    58                54 o              60                      55                     61               ",
            " Wed 11 Mar 2026    59                55                57                      56 p                                    ",
            "▸Thu 12 Mar 2026    60                52                58                      53 p                   62               ",
            " p provisional · o offset assumed · x out of range · d implausible date (kept, not in the value)                        ",
            " Thu 12 Mar 2026  raw samples and revisions  more ↓                                                                     ",
            " ● 华为运动健康  latest 60  written by 华为运动健康 (Health Connect)  com.huawei.health  derivation not documented      ",
            "   06:12 +01:00  60 count/min  Oura Ring (ring)  automatically recorded  modified 12 Mar 06:20 +01:00                   ",
            " ◆ Oura  latest 52  written by Oura (Health Connect)  com.ouraring.oura                                                 ",
            "     as Oura documents it: window: the night · statistic: the                                                           ",
            "       lowest 10-minute average · appears: each morning when you                                                        ",
            " ←→ day  +- zoom  a aggregation  c context  1–9 writers  m mean  b band  v compare  Tab focus  / date  ? help  q quit   ",
        ])
    }

    @Test("200×60: every name, store and package whole; the detail pane beside them; the table as tall as its days")
    func screen200() {
        let lines = Fixture.screen(LayoutFixture.state(200, 60))
        #expect(lines[30].hasPrefix("    └"), "a plot of 27 rows")
        #expect(Self.placed(lines, axis: 30) == [
            " rhr   resting heart rate  20 Feb – 12 Mar 2026                                                                                                                               one value per day: latest ",
            " Health Connect as of 12 Mar 08:00 +01:00  ·  HealthKit as of 12 Mar 21:00 +01:00                                                                                                                       ",
            " Resting heart rate, bpm  9 columns a day                                                                                                                                       today ▸ Thu 12 Mar 2026 ",
            "    └────┬────────┬────────┬────────┬────────┬────────┬────────┬────────┬────────┬────────┬────────┬────────┬────────┬────────┬────────┬────────┬────────┬────────┬────────┬────────┬────────┬────      ",
            "         20       21       22 Feb   23       24       25       26       27       28       1 Mar    2        3        4        5        6        7        8 Mar    9        10       11    12 Mar        ",
            " Health Connect: 1 ● 华为运动健康  2 ◆ Oura  3 ■ Samsung Health  HealthKit: 4 ▲ Jane’s Apple Watch  5 ▼ 🏃 Running Club   ◆ Oura in full, the others dimmed (f: next)                                   ",
            " △ provisional: Apple may still replace this estimate   ◆ lowest 10-minute night average                                                                                                                ",
            " Per source      1 ● 华为运动健康  2 ◆ Oura          3 ■ Samsung Health               4 ▲ Jane’s Apple Watch    5 ▼ 🏃 Running Club │ Thu 12 Mar 2026  raw samples and revisions  more ↓                ",
            " latest          Health Connect    Health Connect    Health Connect                   HealthKit                 HealthKit           │ ● 华为运动健康  latest 60                                         ",
            "                 com.huawei.health com.ouraring.oura com.samsung.android.wear.shealth com.apple.health.7A1B3C4D                     │   written by 华为运动健康 (Health Connect)  com.huawei.health     ",
            " Fri 20 Feb 2026    64                52                56                               56                        60               │   derivation not documented                                       ",
            " Sat 21 Feb 2026    60                55                52                               60                                         │   06:12 +01:00  60 count/min  Oura Ring (ring)                    ",
            " Sun 22 Feb 2026    61                58                54                               63                        66               │     automatically recorded  modified 12 Mar 06:20 +01:00          ",
            " Mon 23 Feb 2026    57                55                58                               60                                         │ ◆ Oura  latest 52  written by Oura (Health Connect)               ",
            " Tue 24 Feb 2026    58                57                57                               61                        64               │   com.ouraring.oura                                               ",
            " Wed 25 Feb 2026    61                53                59                               57                                         │     as Oura documents it: window: the night · statistic: the      ",
            " Thu 26 Feb 2026    59                54                55                               57                        60               │       lowest 10-minute average · appears: each morning when you   ",
            " Fri 27 Feb 2026    62                56                55                               58                                         │       wake up · revised: not documented by Oura · source: Oura    ",
            " Sat 28 Feb 2026    60                52                56                               54                        60               │       Help, “What Is Resting Heart Rate?”                         ",
            " Sun  1 Mar 2026    61                53                53                               56                                         │     last written 12 Mar 06:20 +01:00, for 12 Mar; usually         ",
            " Mon  2 Mar 2026                      50                57                               54                        61               │       arrives about 18 h before its day ends (median of 21)       ",
            " Tue  3 Mar 2026    58                52                56                               58                                         │   06:12 +01:00  52 count/min  Oura Ring (ring)                    ",
            " Wed  4 Mar 2026    59                55                58                               62                        66               │     automatically recorded  modified 12 Mar 06:20 +01:00          ",
            " Thu  5 Mar 2026    57                53                59                               60                                         │ ■ Samsung Health  latest 58                                       ",
            " Fri  6 Mar 2026    60                56                54                               62                        62               │   written by Samsung Health (Health Connect)                      ",
            " Sat  7 Mar 2026    63                54                55                               58                                         │   com.samsung.android.wear.shealth  not documented by Samsung     ",
            " Sun  8 Mar 2026    61                56                52                               59                        60               │   06:12 +01:00  58 count/min  Oura Ring (ring)                    ",
            " Mon  9 Mar 2026    62                58                56                               59                                         │     automatically recorded  modified 12 Mar 06:20 +01:00          ",
            " Tue 10 Mar 2026    58                54 o              60                               55                        61               │ ▲ Jane’s Apple Watch  latest 53  HealthKit estimate               ",
            " Wed 11 Mar 2026    59                55                57                               56 p                                       │   all-day rest estimate                                           ",
            "▸Thu 12 Mar 2026    60                52                58                               53 p                      62               │     com.apple.health.7A1B3C4D  Watch7,1                           ",
            " p provisional · o offset assumed · x out of range · d implausible date (kept, not in the value)                                    │   00:03–23:48 +01:00  53 count/min  Apple Inc. Watch              ",
            " ←→ day  +- zoom  a aggregation  c context  1–9 writers  m mean  b band  v compare  Tab focus  / date  r reload  ? help  q quit                                                                         ",
        ])
    }

    @Test("300×80: the same, the detail pane as wide as its widest line, the chart all the rows left")
    func screen300() {
        let lines = Fixture.screen(LayoutFixture.state(300, 80))
        #expect(lines[51].hasPrefix("    └"), "a plot of 48 rows")
        #expect(Self.placed(lines, axis: 51) == [
            " rhr   resting heart rate  20 Feb – 12 Mar 2026                                                                                                                                                                                                                                   one value per day: latest ",
            " Health Connect as of 12 Mar 08:00 +01:00  ·  HealthKit as of 12 Mar 21:00 +01:00                                                                                                                                                                                                                           ",
            " Resting heart rate, bpm  14 columns a day                                                                                                                                                                                                                                          today ▸ Thu 12 Mar 2026 ",
            "    └──────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────────────┬─────── ",
            "           20            21            22 Feb        23            24            25            26            27            28            1 Mar         2             3             4             5             6             7             8 Mar         9             10            11         12 Mar      ",
            " Health Connect: 1 ● 华为运动健康  2 ◆ Oura  3 ■ Samsung Health  HealthKit: 4 ▲ Jane’s Apple Watch  5 ▼ 🏃 Running Club   ◆ Oura in full, the others dimmed (f: next)   △ provisional: Apple may still replace this estimate   ◆ lowest 10-minute night average                                             ",
            " Per source      1 ● 华为运动健康  2 ◆ Oura          3 ■ Samsung Health               4 ▲ Jane’s Apple Watch    5 ▼ 🏃 Running Club │ Thu 12 Mar 2026  raw samples and revisions                                                                                                                            ",
            " latest          Health Connect    Health Connect    Health Connect                   HealthKit                 HealthKit           │ ● 华为运动健康  latest 60  written by 华为运动健康 (Health Connect)  com.huawei.health  derivation not documented                                                     ",
            "                 com.huawei.health com.ouraring.oura com.samsung.android.wear.shealth com.apple.health.7A1B3C4D                     │   06:12 +01:00  60 count/min  Oura Ring (ring)  automatically recorded  modified 12 Mar 06:20 +01:00                                                                  ",
            " Fri 20 Feb 2026    64                52                56                               56                        60               │ ◆ Oura  latest 52  written by Oura (Health Connect)  com.ouraring.oura                                                                                                ",
            " Sat 21 Feb 2026    60                55                52                               60                                         │     as Oura documents it: window: the night · statistic: the                                                                                                          ",
            " Sun 22 Feb 2026    61                58                54                               63                        66               │       lowest 10-minute average · appears: each morning when you                                                                                                       ",
            " Mon 23 Feb 2026    57                55                58                               60                                         │       wake up · revised: not documented by Oura · source: Oura                                                                                                        ",
            " Tue 24 Feb 2026    58                57                57                               61                        64               │       Help, “What Is Resting Heart Rate?”                                                                                                                             ",
            " Wed 25 Feb 2026    61                53                59                               57                                         │     last written 12 Mar 06:20 +01:00, for 12 Mar; usually                                                                                                             ",
            " Thu 26 Feb 2026    59                54                55                               57                        60               │       arrives about 18 h before its day ends (median of 21)                                                                                                           ",
            " Fri 27 Feb 2026    62                56                55                               58                                         │   06:12 +01:00  52 count/min  Oura Ring (ring)  automatically recorded  modified 12 Mar 06:20 +01:00                                                                  ",
            " Sat 28 Feb 2026    60                52                56                               54                        60               │ ■ Samsung Health  latest 58  written by Samsung Health (Health Connect)  com.samsung.android.wear.shealth  not documented by Samsung                                  ",
            " Sun  1 Mar 2026    61                53                53                               56                                         │   06:12 +01:00  58 count/min  Oura Ring (ring)  automatically recorded  modified 12 Mar 06:20 +01:00                                                                  ",
            " Mon  2 Mar 2026                      50                57                               54                        61               │ ▲ Jane’s Apple Watch  latest 53  HealthKit estimate  all-day rest estimate                                                                                            ",
            " Tue  3 Mar 2026    58                52                56                               58                                         │     com.apple.health.7A1B3C4D  Watch7,1                                                                                                                               ",
            " Wed  4 Mar 2026    59                55                58                               62                        66               │   00:03–23:48 +01:00  53 count/min  Apple Inc. Watch  created 13 Mar 00:12 +01:00  △ provisional, read 12 Mar 21:00 +01:00                                            ",
            " Thu  5 Mar 2026    57                53                59                               60                                         │ ▼ 🏃 Running Club  latest 62  written by 🏃 Running Club into HealthKit  derivation not documented                                                                    ",
            " Fri  6 Mar 2026    60                56                54                               62                        62               │   00:03–23:48 +01:00  62 count/min  created 13 Mar 00:12 +01:00                                                                                                       ",
            " Sat  7 Mar 2026    63                54                55                               58                                         │                                                                                                                                                                       ",
            " Sun  8 Mar 2026    61                56                52                               59                        60               │ Heart rate that day (context, not resting)                                                                                                                            ",
            " Mon  9 Mar 2026    62                58                56                               59                                         │   HealthKit · Jane’s Apple Watch: sedentary lowest 51, median 60 bpm of 5 sedentary; 6 samples (5 sedentary, 1 active, 0 not set)                                     ",
            " Tue 10 Mar 2026    58                54 o              60                               55                        61               │                                                                                                                                                                       ",
            " Wed 11 Mar 2026    59                55                57                               56 p                                       │ Revision history                                                                                                                                                      ",
            "▸Thu 12 Mar 2026    60                52                58                               53 p                      62               │   ▲ Jane’s Apple Watch: draft 61 → 58 (Apple Health export, 12 Mar 21:00 +01:00)                                                                                      ",
            " p provisional · o offset assumed · x out of range · d implausible date (kept, not in the value)                                    │                                                                                                                                                                       ",
            " ←→ day  +- zoom  a aggregation  c context  1–9 writers  m mean  b band  v compare  Tab focus  / date  r reload  ? help  q quit                                                                                                                                                                             ",
        ])
    }

    static let sizes = [(80, 24), (120, 40), (200, 60), (300, 80)]

    @Test("Where the screen holds them, every writer's name, store and package show whole in the columns' headings",
          arguments: [(200, 60), (300, 80)])
    func headingsWhole(width: Int, height: Int) throws {
        let state = LayoutFixture.state(width, height)
        let lines = Fixture.screen(state)
        let top = try #require(lines.firstIndex { $0.hasPrefix(" Per source") })
        for heading in ["1 ● 华为运动健康", "2 ◆ Oura", "3 ■ Samsung Health", "4 ▲ Jane’s Apple Watch", "5 ▼ 🏃 Running Club"] {
            #expect(lines[top].contains(heading + " "), "\(heading) at \(width)×\(height)")
        }
        // The store and package rows are ASCII: as many characters as the columns' pane is wide.
        let width = try #require(DashboardLayout(state).columns).width
        let stores = String(lines[top + 1].prefix(width)), packages = String(lines[top + 2].prefix(width))
        #expect(stores.components(separatedBy: "Health Connect").count == 4)
        #expect(stores.components(separatedBy: "HealthKit").count == 3)
        for package in ["com.huawei.health", "com.ouraring.oura", "com.samsung.android.wear.shealth", "com.apple.health.7A1B3C4D"] {
            #expect(packages.contains(package + " "), "\(package) at \(width)×\(height)")
        }
        #expect(!(lines[top] + stores + packages).contains("…"))
    }

    @Test("The detail pane is never wider than its widest line, wherever it goes", arguments: sizes)
    func detailNoWiderThanItsLines(width: Int, height: Int) throws {
        var state = LayoutFixture.state(width, height)
        // At 80×24 it takes the columns' place (Tab); elsewhere it is on screen beside or below them.
        if width == 80 { Fixture.press(&state, .tab, .tab) }
        for _ in 0..<3 {
            let layout = DashboardLayout(state)
            let detail = try #require(layout.detail, "no detail pane at \(width)×\(height)")
            let room = detail.width + (layout.spare?.width ?? 0)
            let glyphs = Glyphs(unicode: true)
            let model = DetailView.Model(state)
            #expect(detail.width == DetailView.width(model, limit: room, glyphs: glyphs))
            // Its lines at its width are the lines it has at all the room it could have had.
            let texts = { (w: Int) in DetailView.lines(model, width: w - 1, glyphs: glyphs).map { $0.spans.map(\.text).joined() } }
            #expect(texts(detail.width) == texts(room))
            Fixture.press(&state, .character("k"))
        }
    }

    @Test("The table is as tall as its days where rows are free: no blank rows under it, the chart gets them",
          arguments: [(200, 60), (300, 80)])
    func tableAsTallAsItsDays(width: Int, height: Int) throws {
        let state = LayoutFixture.state(width, height)
        let layout = DashboardLayout(state)
        let columns = try #require(layout.columns)
        // Three heading rows, the 21 days, the flags' meaning.
        #expect(columns.height == 3 + LayoutFixture.days + 1)
        let lines = Fixture.screen(state)
        #expect(lines[columns.y + 3].hasPrefix(" Fri 20 Feb 2026"))
        #expect(lines[columns.maxY - 2].hasPrefix("▸Thu 12 Mar 2026"))
        #expect(layout.chart.plot.height > columns.height)
    }

    @Test("Moving the cursor, Tab, hiding a writer and f leave the chart and the table where they are", arguments: sizes)
    func stableAsTheCursorMoves(width: Int, height: Int) {
        var state = LayoutFixture.state(width, height)
        let first = DashboardLayout(state)
        // (A message takes the table's last row while it shows.)
        for key: Key in [.left, .left, .pageUp, .character("g"), .character("G"), .tab, .character("2"), .character("f"),
                         .character("2"), .backTab] {
            Fixture.press(&state, key)
            let layout = DashboardLayout(state)
            #expect(layout.chart.plot == first.chart.plot, "after \(key) at \(width)×\(height)")
            #expect(layout.chart.legend == first.chart.legend, "after \(key) at \(width)×\(height)")
            if let columns = layout.columns, let before = first.columns {
                #expect(columns.y == before.y && columns.height + (state.message == nil ? 0 : 1) == before.height, "after \(key)")
            }
        }
    }

    @Test("Every size from 60×16 to 300×80 draws every cell once, each row its width", arguments: sizes + [(60, 16), (100, 30)])
    func everyCellDrawn(width: Int, height: Int) {
        for state in [LayoutFixture.state(width, height), Fixture.state(HeartRateOnlyTests.watchOwner(),
                      size: TerminalSize(width: width, height: height), pressing: .character("c"))] {
            let lines = Fixture.screen(state)
            for (y, line) in lines.enumerated() {
                #expect(!line.contains("¤"), "row \(y) at \(width)×\(height): \(line)")
                #expect(DisplayWidth.of(line) == width, "row \(y) at \(width)×\(height)")
            }
        }
    }
}
