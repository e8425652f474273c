#ifndef RHR_SIGNAL_CHAIN_H
#define RHR_SIGNAL_CHAIN_H
/* What rhr's two sets of signal handlers share (CTerminalSignals: the terminal put back; CTemporaryFiles: the
   temporary copies of health data removed): which signals a crash or a request to quit arrives as, and handing a
   signal on to the handler that was there before, so that each set does its part and the Swift backtracer still
   reports a crash. Everything here is async-signal-safe. */
#include <signal.h>

#define RHR_CRASH_SIGNAL_COUNT 6
#define RHR_QUIT_SIGNAL_COUNT 3

/* SIGILL, SIGTRAP (a Swift trap is one of these two), SIGABRT, SIGBUS, SIGFPE, SIGSEGV. */
extern const int rhr_crash_signals[RHR_CRASH_SIGNAL_COUNT];
/* SIGINT, SIGTERM, SIGHUP. */
extern const int rhr_quit_signals[RHR_QUIT_SIGNAL_COUNT];

/* Installs `handler` for every crash signal (with its siginfo, on the alternate stack when one is set) and keeps
   the actions it replaces in `previous`, in the order of `rhr_crash_signals`. */
void rhr_install_crash_handler(void (*handler)(int, siginfo_t *, void *),
                               struct sigaction previous[RHR_CRASH_SIGNAL_COUNT]);

/* Calls the handler `previous` holds, if it is a function (not SIG_DFL or SIG_IGN). */
void rhr_chain(const struct sigaction *previous, int sig, siginfo_t *info, void *context);

/* Calls the handler crash signal `sig` had before `rhr_install_crash_handler` (kept in `previous`). */
void rhr_chain_crash(const struct sigaction previous[RHR_CRASH_SIGNAL_COUNT], int sig, siginfo_t *info,
                     void *context);

/* Ends the process by `sig` as if no handler had been there: the default action, once the handler returns. */
void rhr_die_of(int sig);
#endif
