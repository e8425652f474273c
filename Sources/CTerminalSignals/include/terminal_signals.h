#ifndef RHR_TERMINAL_SIGNALS_H
#define RHR_TERMINAL_SIGNALS_H
/* Signals for a full-screen session: quit signals become a flag and a wake-up byte, a resize chains to curses'
   handler and wakes the loop, a crash puts the terminal back before the process dies. The state lives in
   terminal_signals.c, one copy per process; RHRTerminal/TerminalSignals.swift is its only caller. */
#include <stddef.h>

/* Saves the terminal modes as the shell left them, before curses changes them. */
void rhr_save_terminal_modes(void);

/* The bytes that undo curses' screen modes (leave the alternate screen, show the cursor, reset colours),
   written by the crash handler. At most 512 are kept. */
void rhr_set_restore_bytes(const char *bytes, size_t length);

/* Installs the handlers (after curses started, so its SIGWINCH handler is there to chain to). */
void rhr_install_signal_handlers(void);

/* Puts back the handlers found at install; with `hung_up`, SIGHUP is ignored instead. */
void rhr_restore_signal_handlers(int hung_up);

/* The descriptor the run loop watches for signals, or -1 before the first install. */
int rhr_wake_descriptor(void);

/* Empties the wake-up pipe. */
void rhr_drain_wake(void);

/* The quit signal's number that arrived since the last call, or 0. */
int rhr_take_pending_signal(void);
#endif
