#include "temporary_files.h"
#include "quit_note.h"
#include "signal_chain.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ENTRY_COUNT 64

/* One registration: `count` NUL-terminated paths, one after another in `paths`. */
struct entry {
    int count;
    char paths[];
};

static _Atomic(struct entry *) entries[ENTRY_COUNT];
/* What rhr_temporary_remove_all leaves in a slot it emptied: no paths, never freed, and not NULL, so the slot is
   not handed to a new registration before its owner unregisters (which would then forget the newcomer). */
static struct entry retired = { .count = 0 };
/* Set by a handler before it reads the entries: an entry forgotten meanwhile is then not freed under it. */
static atomic_int removing;
static atomic_int installed;

static struct sigaction previous_crash_actions[RHR_CRASH_SIGNAL_COUNT];

int rhr_temporary_register(const char *const *paths, int count) {
    size_t size = 0;
    for (int i = 0; i < count; i++) size += strlen(paths[i]) + 1;
    struct entry *made = malloc(sizeof(struct entry) + size);
    if (!made) return -1;
    made->count = count;
    char *at = made->paths;
    for (int i = 0; i < count; i++) {
        size_t length = strlen(paths[i]) + 1;
        memcpy(at, paths[i], length);
        at += length;
    }
    for (int slot = 0; slot < ENTRY_COUNT; slot++) {
        struct entry *expected = NULL;
        if (atomic_compare_exchange_strong(&entries[slot], &expected, made)) return slot;
    }
    free(made);
    return -1;
}

void rhr_temporary_unregister(int slot) {
    if (slot < 0 || slot >= ENTRY_COUNT) return;
    struct entry *gone = atomic_exchange(&entries[slot], NULL);
    /* A handler that began before the exchange may still be reading it; the process is ending then anyway. */
    if (gone && gone != &retired && !atomic_load(&removing)) free(gone);
}

/* unlink and rmdir only: both are async-signal-safe. */
static void remove_entry(const struct entry *entry) {
    const char *path = entry->paths;
    for (int i = 0; i < entry->count; i++) {
        if (unlink(path) != 0 && (errno == EISDIR || errno == EPERM)) rmdir(path);
        path += strlen(path) + 1;
    }
}

static void remove_everything(void) {
    int saved = errno;
    for (int slot = 0; slot < ENTRY_COUNT; slot++) {
        struct entry *entry = atomic_load(&entries[slot]);
        if (entry) remove_entry(entry);
    }
    errno = saved;
}

/* Not from a handler: each entry is taken out of its slot before it is read, so an owner that unregisters
   meanwhile (a folder import finishing on another thread) finds it retired and frees nothing under us. */
void rhr_temporary_remove_all(void) {
    int saved = errno;
    for (int slot = 0; slot < ENTRY_COUNT; slot++) {
        struct entry *taken = atomic_load(&entries[slot]);
        if (!taken || taken == &retired) continue;
        if (!atomic_compare_exchange_strong(&entries[slot], &taken, &retired)) continue;
        remove_entry(taken);
        /* As in unregister: a handler that began meanwhile may still be reading it. */
        if (!atomic_load(&removing)) free(taken);
    }
    errno = saved;
}

/* SIGINT, SIGTERM, SIGHUP: kept for later while a store is being written (quit_note.h); else say the note, remove,
   then exit 128 + the signal when a note was said (an interrupted import), or die of the signal as if no handler had
   been there. */
static void on_quit_signal(int sig) {
    if (rhr_quit_keep(sig)) return;
    int said = rhr_quit_note_write();
    atomic_store(&removing, 1);
    remove_everything();
    if (said) _exit(128 + sig);
    rhr_die_of(sig);
}

/* A crash: remove, let whoever had the signal before report it, then die of it. */
static void on_crash_signal(int sig, siginfo_t *info, void *context) {
    atomic_store(&removing, 1);
    remove_everything();
    rhr_chain_crash(previous_crash_actions, sig, info, context);
    rhr_die_of(sig);
}

void rhr_temporary_install_signal_cleanup(void) {
    if (atomic_exchange(&installed, 1)) return;
    struct sigaction quit;
    memset(&quit, 0, sizeof quit);
    quit.sa_handler = on_quit_signal;
    sigemptyset(&quit.sa_mask);
    for (int i = 0; i < RHR_QUIT_SIGNAL_COUNT; i++) {
        struct sigaction previous;
        /* A signal the process was started ignoring (nohup) stays ignored. */
        if (sigaction(rhr_quit_signals[i], NULL, &previous) == 0 && previous.sa_handler == SIG_IGN) continue;
        sigaction(rhr_quit_signals[i], &quit, NULL);
    }
    rhr_install_crash_handler(on_crash_signal, previous_crash_actions);
}
