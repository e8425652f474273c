#include "terminal_signals.h"
#include "signal_chain.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static volatile sig_atomic_t pending_signal;
static volatile sig_atomic_t saved_termios_valid;
static volatile sig_atomic_t restore_length;
static struct termios saved_termios;
static char restore_bytes[512];
static struct sigaction previous_crash_actions[RHR_CRASH_SIGNAL_COUNT];
static struct sigaction previous_quit_actions[RHR_QUIT_SIGNAL_COUNT];
static sigset_t previous_mask;
static struct sigaction previous_resize_action;
/* Written by the handlers, watched by the run loop: a signal may land on another thread (a background read),
   and then the main thread's poll() is not interrupted. */
static int wake_pipe[2];
static int wake_pipe_open;

static void wake(void) {
    if (wake_pipe_open) {
        char byte = 1;
        ssize_t ignored = write(wake_pipe[1], &byte, 1);
        (void)ignored;
    }
}

/* SIGINT, SIGTERM, SIGHUP: only a flag and a wake-up; the run loop exits cleanly. */
static void on_quit_signal(int sig) {
    pending_signal = sig;
    wake();
}

/* SIGWINCH: curses' own handler (it makes the next read return KEY_RESIZE), then a wake-up. */
static void on_resize_signal(int sig, siginfo_t *info, void *context) {
    struct sigaction previous = previous_resize_action;
    rhr_chain(&previous, sig, info, context);
    wake();
}

/* A crash (a Swift trap is SIGILL or SIGTRAP): put the terminal back with async-signal-safe calls only, let
   whoever had the signal before report it (the Swift backtracer prints its crash report on the restored
   terminal), then die of the signal, whether it came from a fault or from kill(). */
static void on_crash_signal(int sig, siginfo_t *info, void *context) {
    if (restore_length > 0) {
        ssize_t ignored = write(STDOUT_FILENO, restore_bytes, (size_t)restore_length);
        (void)ignored;
    }
    if (saved_termios_valid) tcsetattr(STDIN_FILENO, TCSANOW, &saved_termios);
    rhr_chain_crash(previous_crash_actions, sig, info, context);
    rhr_die_of(sig);
}

void rhr_save_terminal_modes(void) {
    if (tcgetattr(STDIN_FILENO, &saved_termios) == 0) saved_termios_valid = 1;
}

void rhr_set_restore_bytes(const char *bytes, size_t length) {
    if (length > sizeof restore_bytes) length = sizeof restore_bytes;
    memcpy(restore_bytes, bytes, length);
    restore_length = (sig_atomic_t)length;
}

void rhr_install_signal_handlers(void) {
    if (!wake_pipe_open && pipe(wake_pipe) == 0) {
        for (int i = 0; i < 2; i++) {
            fcntl(wake_pipe[i], F_SETFL, fcntl(wake_pipe[i], F_GETFL) | O_NONBLOCK);
            fcntl(wake_pipe[i], F_SETFD, FD_CLOEXEC);
        }
        wake_pipe_open = 1;
    }
    struct sigaction resize;
    memset(&resize, 0, sizeof resize);
    resize.sa_sigaction = on_resize_signal;
    sigemptyset(&resize.sa_mask);
    resize.sa_flags = SA_SIGINFO;
    sigaction(SIGWINCH, &resize, &previous_resize_action);
    struct sigaction quit;
    memset(&quit, 0, sizeof quit);
    quit.sa_handler = on_quit_signal;
    sigemptyset(&quit.sa_mask);
    quit.sa_flags = 0;   /* no SA_RESTART: poll() must return EINTR */
    for (int i = 0; i < RHR_QUIT_SIGNAL_COUNT; i++) sigaction(rhr_quit_signals[i], &quit, &previous_quit_actions[i]);
    rhr_install_crash_handler(on_crash_signal, previous_crash_actions);
    /* A process can start with these blocked (a mask inherited from a thread pool through a terminal
       multiplexer): then SIGTERM would never arrive. Unblock what rhr handles. */
    sigset_t handled;
    sigemptyset(&handled);
    for (int i = 0; i < RHR_QUIT_SIGNAL_COUNT; i++) sigaddset(&handled, rhr_quit_signals[i]);
    for (int i = 0; i < RHR_CRASH_SIGNAL_COUNT; i++) sigaddset(&handled, rhr_crash_signals[i]);
    pthread_sigmask(SIG_UNBLOCK, &handled, &previous_mask);
}

/* After a hang-up SIGHUP is ignored instead: the loop can see the terminal go (POLLHUP) before the kernel's
   SIGHUP lands, and that SIGHUP must not end the process before it has cleaned up (a temporary store of health
   data left in /tmp). */
void rhr_restore_signal_handlers(int hung_up) {
    sigaction(SIGWINCH, &previous_resize_action, NULL);
    for (int i = 0; i < RHR_QUIT_SIGNAL_COUNT; i++) {
        if (hung_up && rhr_quit_signals[i] == SIGHUP) {
            struct sigaction ignore;
            memset(&ignore, 0, sizeof ignore);
            ignore.sa_handler = SIG_IGN;
            sigemptyset(&ignore.sa_mask);
            sigaction(SIGHUP, &ignore, NULL);
        } else {
            sigaction(rhr_quit_signals[i], &previous_quit_actions[i], NULL);
        }
    }
    for (int i = 0; i < RHR_CRASH_SIGNAL_COUNT; i++) sigaction(rhr_crash_signals[i], &previous_crash_actions[i], NULL);
    pthread_sigmask(SIG_SETMASK, &previous_mask, NULL);
    restore_length = 0;
}

int rhr_wake_descriptor(void) {
    return wake_pipe_open ? wake_pipe[0] : -1;
}

void rhr_drain_wake(void) {
    char buffer[64];
    if (wake_pipe_open) while (read(wake_pipe[0], buffer, sizeof buffer) > 0) {}
}

/* One atomic exchange: a signal landing between a separate read and reset would be lost (its wake-up byte
   drained, the loop never told). */
int rhr_take_pending_signal(void) {
    return (int)__atomic_exchange_n(&pending_signal, 0, __ATOMIC_SEQ_CST);
}
