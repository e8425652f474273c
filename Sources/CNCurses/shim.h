#ifndef RHR_CNCURSES_SHIM_H
#define RHR_CNCURSES_SHIM_H
/* Wide-character ncurses: SwiftPM drops the -D flags pkg-config prints, so define them here. */
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <langinfo.h>
#include <stdio.h>
#include <wchar.h>
#include <ncursesw/curses.h>

/* Macros and C globals Swift cannot import, or flags as not concurrency-safe. */
static inline WINDOW *rhr_stdscr(void) { return stdscr; }
static inline int rhr_lines(void) { return LINES; }
static inline int rhr_cols(void) { return COLS; }
static inline int rhr_colors(void) { return COLORS; }
static inline nl_item rhr_codeset(void) { return CODESET; }
static inline FILE *rhr_stdout(void) { return stdout; }
static inline FILE *rhr_stdin(void) { return stdin; }
static inline attr_t rhr_a_normal(void) { return A_NORMAL; }
static inline attr_t rhr_a_bold(void) { return A_BOLD; }
static inline attr_t rhr_a_dim(void) { return A_DIM; }
static inline attr_t rhr_a_reverse(void) { return A_REVERSE; }
static inline attr_t rhr_a_underline(void) { return A_UNDERLINE; }
static inline attr_t rhr_a_italic(void) { return A_ITALIC; }
static inline attr_t rhr_color_pair(int n) { return COLOR_PAIR(n); }
static inline int rhr_key_resize(void) { return KEY_RESIZE; }
static inline int rhr_err(void) { return ERR; }

/* Terminal restore on every exit path. All state lives in one function-local static (Swift's C importer
   emits no storage for file-scope aggregate statics), and only RHRTerminal/TerminalSignals.swift calls
   these functions, so there is exactly one copy of it. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#define RHR_CRASH_SIGNAL_COUNT 6
#define RHR_QUIT_SIGNAL_COUNT 3

struct rhr_signal_state {
    volatile sig_atomic_t pending_signal;
    volatile sig_atomic_t saved_termios_valid;
    volatile sig_atomic_t restore_length;
    struct termios saved_termios;
    char restore_bytes[512];
    struct sigaction previous_crash_actions[RHR_CRASH_SIGNAL_COUNT];
    struct sigaction previous_quit_actions[RHR_QUIT_SIGNAL_COUNT];
    sigset_t previous_mask;
    struct sigaction previous_resize_action;
    /* Written by the handlers, watched by the run loop: a signal may land on another thread (a background
       read), and then the main thread's poll() is not interrupted. */
    int wake_pipe[2];
    int wake_pipe_open;
};

static inline struct rhr_signal_state *rhr_signal_state(void) {
    static struct rhr_signal_state state;
    return &state;
}

static inline int rhr_crash_signal(int i) {
    switch (i) {
    case 0: return SIGILL;
    case 1: return SIGTRAP;
    case 2: return SIGABRT;
    case 3: return SIGBUS;
    case 4: return SIGFPE;
    default: return SIGSEGV;
    }
}

static inline int rhr_quit_signal(int i) {
    switch (i) {
    case 0: return SIGINT;
    case 1: return SIGTERM;
    default: return SIGHUP;
    }
}

static inline void rhr_wake(void) {
    struct rhr_signal_state *state = rhr_signal_state();
    if (state->wake_pipe_open) {
        char byte = 1;
        ssize_t ignored = write(state->wake_pipe[1], &byte, 1);
        (void)ignored;
    }
}

/* SIGINT, SIGTERM, SIGHUP: only a flag and a wake-up; the run loop exits cleanly. */
static void rhr_on_quit_signal(int sig) {
    rhr_signal_state()->pending_signal = sig;
    rhr_wake();
}

/* SIGWINCH: curses' own handler (it makes the next read return KEY_RESIZE), then a wake-up. */
static void rhr_on_resize_signal(int sig, siginfo_t *info, void *context) {
    struct sigaction previous = rhr_signal_state()->previous_resize_action;
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction) previous.sa_sigaction(sig, info, context);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN && previous.sa_handler) {
        previous.sa_handler(sig);
    }
    rhr_wake();
}

/* A crash (a Swift trap is SIGILL or SIGTRAP): put the terminal back with async-signal-safe calls only,
   let whoever had the signal before report it (the Swift backtracer prints its crash report on the restored
   terminal), then die of the signal, whether it came from a fault or from kill(). */
static void rhr_on_crash_signal(int sig, siginfo_t *info, void *context) {
    struct rhr_signal_state *state = rhr_signal_state();
    if (state->restore_length > 0) {
        ssize_t ignored = write(STDOUT_FILENO, state->restore_bytes, (size_t)state->restore_length);
        (void)ignored;
    }
    if (state->saved_termios_valid) tcsetattr(STDIN_FILENO, TCSANOW, &state->saved_termios);
    for (int i = 0; i < RHR_CRASH_SIGNAL_COUNT; i++) {
        if (rhr_crash_signal(i) != sig) continue;
        struct sigaction previous = state->previous_crash_actions[i];
        if (previous.sa_flags & SA_SIGINFO) {
            if (previous.sa_sigaction) previous.sa_sigaction(sig, info, context);
        } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN && previous.sa_handler) {
            previous.sa_handler(sig);
        }
    }
    signal(sig, SIG_DFL);
    raise(sig);   /* blocked until this handler returns, then the default action ends the process */
}

/* Saves the terminal modes as the shell left them, before curses changes them. */
static inline void rhr_save_terminal_modes(void) {
    struct rhr_signal_state *state = rhr_signal_state();
    if (tcgetattr(STDIN_FILENO, &state->saved_termios) == 0) state->saved_termios_valid = 1;
}

/* The bytes that undo curses' screen modes: leave the alternate screen, show the cursor, reset colours. */
static inline void rhr_set_restore_bytes(const char *bytes, size_t length) {
    struct rhr_signal_state *state = rhr_signal_state();
    if (length > sizeof(state->restore_bytes)) length = sizeof(state->restore_bytes);
    memcpy(state->restore_bytes, bytes, length);
    state->restore_length = (sig_atomic_t)length;
}

/* A terminfo string capability, or NULL when the terminal has none. */
static inline const char *rhr_terminfo_string(const char *name) {
    char *value = tigetstr(name);
    if (value == NULL || value == (char *)-1) return NULL;
    return value;
}

/* Installs the handlers (after curses started, so its SIGWINCH handler is there to chain to). */
static inline void rhr_install_signal_handlers(void) {
    struct rhr_signal_state *state = rhr_signal_state();
    if (!state->wake_pipe_open && pipe(state->wake_pipe) == 0) {
        for (int i = 0; i < 2; i++) {
            fcntl(state->wake_pipe[i], F_SETFL, fcntl(state->wake_pipe[i], F_GETFL) | O_NONBLOCK);
            fcntl(state->wake_pipe[i], F_SETFD, FD_CLOEXEC);
        }
        state->wake_pipe_open = 1;
    }
    struct sigaction resize;
    memset(&resize, 0, sizeof resize);
    resize.sa_sigaction = rhr_on_resize_signal;
    sigemptyset(&resize.sa_mask);
    resize.sa_flags = SA_SIGINFO;
    sigaction(SIGWINCH, &resize, &state->previous_resize_action);
    struct sigaction quit;
    memset(&quit, 0, sizeof quit);
    quit.sa_handler = rhr_on_quit_signal;
    sigemptyset(&quit.sa_mask);
    quit.sa_flags = 0;   /* no SA_RESTART: poll() must return EINTR */
    for (int i = 0; i < RHR_QUIT_SIGNAL_COUNT; i++)
        sigaction(rhr_quit_signal(i), &quit, &state->previous_quit_actions[i]);
    struct sigaction crash;
    memset(&crash, 0, sizeof crash);
    crash.sa_sigaction = rhr_on_crash_signal;
    sigemptyset(&crash.sa_mask);
    /* The backtracer's handler runs on its own alternate stack when it set one; ours may run on it too. */
    crash.sa_flags = SA_SIGINFO | SA_ONSTACK;
    for (int i = 0; i < RHR_CRASH_SIGNAL_COUNT; i++)
        sigaction(rhr_crash_signal(i), &crash, &state->previous_crash_actions[i]);
    /* A process can start with these blocked (a mask inherited from a thread pool through a terminal
       multiplexer): then SIGTERM would never arrive. Unblock what rhr handles. */
    sigset_t handled;
    sigemptyset(&handled);
    for (int i = 0; i < RHR_QUIT_SIGNAL_COUNT; i++) sigaddset(&handled, rhr_quit_signal(i));
    for (int i = 0; i < RHR_CRASH_SIGNAL_COUNT; i++) sigaddset(&handled, rhr_crash_signal(i));
    pthread_sigmask(SIG_UNBLOCK, &handled, &state->previous_mask);
}

/* Puts back the handlers found at install. After a hang-up SIGHUP is ignored instead: the loop can see the
   terminal go (POLLHUP) before the kernel's SIGHUP lands, and that SIGHUP must not end the process before it
   has cleaned up (a temporary store of health data left in /tmp). */
static inline void rhr_restore_signal_handlers(int hung_up) {
    struct rhr_signal_state *state = rhr_signal_state();
    sigaction(SIGWINCH, &state->previous_resize_action, NULL);
    for (int i = 0; i < RHR_QUIT_SIGNAL_COUNT; i++) {
        if (hung_up && rhr_quit_signal(i) == SIGHUP) {
            struct sigaction ignore;
            memset(&ignore, 0, sizeof ignore);
            ignore.sa_handler = SIG_IGN;
            sigemptyset(&ignore.sa_mask);
            sigaction(SIGHUP, &ignore, NULL);
        } else {
            sigaction(rhr_quit_signal(i), &state->previous_quit_actions[i], NULL);
        }
    }
    for (int i = 0; i < RHR_CRASH_SIGNAL_COUNT; i++)
        sigaction(rhr_crash_signal(i), &state->previous_crash_actions[i], NULL);
    pthread_sigmask(SIG_SETMASK, &state->previous_mask, NULL);
    state->restore_length = 0;
}

/* The descriptor the run loop watches for signals, or -1. */
static inline int rhr_wake_descriptor(void) {
    struct rhr_signal_state *state = rhr_signal_state();
    return state->wake_pipe_open ? state->wake_pipe[0] : -1;
}

/* Empties the wake-up pipe. */
static inline void rhr_drain_wake(void) {
    struct rhr_signal_state *state = rhr_signal_state();
    char buffer[64];
    if (state->wake_pipe_open) while (read(state->wake_pipe[0], buffer, sizeof buffer) > 0) {}
}

/* The signal number that arrived since the last call, or 0. One atomic exchange: a signal landing between a
   separate read and reset would be lost (its wake-up byte drained, the loop never told). */
static inline int rhr_take_pending_signal(void) {
    struct rhr_signal_state *state = rhr_signal_state();
    return (int)__atomic_exchange_n(&state->pending_signal, 0, __ATOMIC_SEQ_CST);
}

static inline int rhr_key_code_yes(void) { return KEY_CODE_YES; }
#endif
