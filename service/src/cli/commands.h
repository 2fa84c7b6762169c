// The `diskpulse` subcommands. Each takes the arguments after its name and
// returns the process exit status: 0 ok, 1 the check/test found a problem or
// failed, 2 usage error or the daemon/tool could not be reached.
// One file per subcommand: cli/<name>_command.cc.
#pragma once

#include <string>
#include <vector>

namespace dp::cli {

using Args = std::vector<std::string>;

int RunStatusCommand(const Args& args);   // status [--url URL] [--json]
int RunBenchCommand(const Args& args);    // bench TARGET... --test ...
int RunDrivesCommand(const Args& args);   // drives [--json]
int RunPoolsCommand(const Args& args);    // pools [--json] [--from-file FILE]
int RunSmartCommand(const Args& args);    // smart DEVICE [--json] | --from-file FILE
int RunRecordCommand(const Args& args);   // record DIR
int RunRunCommand(const Args& args);      // run DRIVE [--test T]
int RunAlertsCommand(const Args& args);   // alerts [test|ack ID]
int RunRebaselineCommand(const Args& args);  // rebaseline DRIVE [--test T] [--reason TEXT]
int RunBackupCommand(const Args& args);      // backup FILE
int RunForgetCommand(const Args& args);      // forget DRIVE [--reason TEXT]
int RunExportCommand(const Args& args);      // export DRIVE [--format csv|json] [--out FILE]

}  // namespace dp::cli
