import Foundation
import RHRCommands

// rhr's executable: the commands live in RHRCommands, where they are unit-tested.
exit(RHRMain.run(Array(CommandLine.arguments.dropFirst())))
