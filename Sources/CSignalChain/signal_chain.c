#include "signal_chain.h"

#include <string.h>

const int rhr_crash_signals[RHR_CRASH_SIGNAL_COUNT] = { SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV };
const int rhr_quit_signals[RHR_QUIT_SIGNAL_COUNT] = { SIGINT, SIGTERM, SIGHUP };

void rhr_install_crash_handler(void (*handler)(int, siginfo_t *, void *),
                               struct sigaction previous[RHR_CRASH_SIGNAL_COUNT]) {
    struct sigaction crash;
    memset(&crash, 0, sizeof crash);
    crash.sa_sigaction = handler;
    sigemptyset(&crash.sa_mask);
    /* The backtracer's handler runs on its own alternate stack when it set one; ours may run on it too. */
    crash.sa_flags = SA_SIGINFO | SA_ONSTACK;
    for (int i = 0; i < RHR_CRASH_SIGNAL_COUNT; i++) sigaction(rhr_crash_signals[i], &crash, &previous[i]);
}

void rhr_chain(const struct sigaction *previous, int sig, siginfo_t *info, void *context) {
    if (previous->sa_flags & SA_SIGINFO) {
        if (previous->sa_sigaction) previous->sa_sigaction(sig, info, context);
    } else if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN && previous->sa_handler) {
        previous->sa_handler(sig);
    }
}

void rhr_chain_crash(const struct sigaction previous[RHR_CRASH_SIGNAL_COUNT], int sig, siginfo_t *info,
                     void *context) {
    for (int i = 0; i < RHR_CRASH_SIGNAL_COUNT; i++) {
        if (rhr_crash_signals[i] != sig) continue;
        rhr_chain(&previous[i], sig, info, context);
    }
}

void rhr_die_of(int sig) {
    signal(sig, SIG_DFL);
    raise(sig);   /* blocked until the handler returns, then the default action ends the process */
}
