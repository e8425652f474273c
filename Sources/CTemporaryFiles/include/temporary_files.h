#ifndef RHR_TEMPORARY_FILES_H
#define RHR_TEMPORARY_FILES_H
/* The temporary copies of health data a process holds (a Health Connect database out of its zip, a pipe spooled
   to a file, a temporary store), kept where a signal handler can remove them: each entry is a list of paths,
   copied into C strings when it is registered, that the handler unlinks (or, for a directory, rmdirs) in order
   with async-signal-safe calls only, before the signal ends the process as it would have. The state lives in
   temporary_files.c, one copy per process; RHRFormats/TemporaryFiles.swift is its only caller. */

/* Registers `count` paths, removed in this order (the files, then their directory last). Returns the entry's
   number, or -1 when every place is taken or memory ran out. Register before creating: a path that does not
   exist yet is simply not there to remove. */
int rhr_temporary_register(const char *const *paths, int count);

/* Forgets an entry once its paths were removed the ordinary way. */
void rhr_temporary_unregister(int entry);

/* Removes every registered path now (a daemon that stops while a folder import is still reading). */
void rhr_temporary_remove_all(void);

/* Installs the handlers: SIGINT, SIGTERM and SIGHUP, and the crash signals (chained to whoever had them before,
   the Swift backtracer), each removing every registered path before the process dies of the signal. Installing
   again changes nothing. */
void rhr_temporary_install_signal_cleanup(void);
#endif
