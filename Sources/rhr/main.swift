import Foundation

exit(DashboardCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
