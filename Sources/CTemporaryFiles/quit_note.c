#include "quit_note.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static _Atomic(char *) note;
static atomic_int line_open;
static atomic_int holds;
static atomic_int kept;
/* Set by a handler before it reads the note: a note replaced meanwhile is then not freed under it. */
static atomic_int writing;

void rhr_quit_note_set(const char *text) {
    char *made = NULL;
    if (text) {
        size_t length = strlen(text);
        made = malloc(length + 2);
        if (!made) return;
        memcpy(made, text, length);
        made[length] = '\n';
        made[length + 1] = '\0';
    }
    char *old = atomic_exchange(&note, made);
    if (old && !atomic_load(&writing)) free(old);
}

void rhr_quit_note_line_open(int open) { atomic_store(&line_open, open); }

void rhr_quit_hold(void) { atomic_fetch_add(&holds, 1); }

void rhr_quit_release(void) {
    if (atomic_fetch_sub(&holds, 1) != 1) return;
    int sig = atomic_exchange(&kept, 0);
    if (sig) raise(sig);
}

int rhr_quit_keep(int sig) {
    if (atomic_load(&holds) <= 0) return 0;
    int none = 0;
    return atomic_compare_exchange_strong(&kept, &none, sig);
}

/* write(2) only, looping over short writes; a failure (a closed terminal) is given up. */
static void write_all(const char *text, size_t length) {
    while (length > 0) {
        ssize_t n = write(STDERR_FILENO, text, length);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        text += n;
        length -= (size_t)n;
    }
}

int rhr_quit_note_write(void) {
    int saved = errno;
    atomic_store(&writing, 1);
    const char *text = atomic_load(&note);
    if (text) {
        if (atomic_load(&line_open)) write_all("\n", 1);
        write_all(text, strlen(text));
    }
    errno = saved;
    return text != NULL;
}
