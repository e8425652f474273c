#ifndef RHR_QUIT_NOTE_H
#define RHR_QUIT_NOTE_H
/* What a quit signal (SIGINT, SIGTERM, SIGHUP) leaves on stderr before it ends the process, and the stretch in which
   it waits: `rhr import` says "interrupted: nothing was imported" on a line of its own (after a progress bar's open
   line), and lets the store's write that is under way finish first, so what it says is so. The quit handler of
   temporary_files.c asks these; RHRSystem/QuitNote.swift is their only other caller. Everything a handler calls is
   async-signal-safe. */

/* The words to write, copied (a line end is added); NULL for none. */
void rhr_quit_note_set(const char *note);

/* Whether a line is open on stderr (a progress bar drawn in place): the note then starts with a line end. */
void rhr_quit_note_line_open(int open);

/* From now until the matching release, a quit signal is kept instead of ending the process (a second one ends it at
   once). Holds nest. */
void rhr_quit_hold(void);

/* Ends a hold; at the last one, a signal kept meanwhile is raised again, and its handler ends the process. */
void rhr_quit_release(void);

/* For the quit handler: keeps `sig` when a hold is on and none is kept yet (returns 1: the handler returns); else 0. */
int rhr_quit_keep(int sig);

/* For the quit handler: writes the note, if any, to stderr; returns 1 when there was one. A process that said a note
   exits with 128 + the signal (130 for Ctrl-C) instead of dying of it: the status a person and a script both read as
   "interrupted", and the one `rhr import` promises (docs/design.md section 5). */
int rhr_quit_note_write(void);
#endif
