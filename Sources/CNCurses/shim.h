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
#include <ncursesw/term.h>

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
static inline int rhr_key_code_yes(void) { return KEY_CODE_YES; }

static inline int rhr_key_mouse(void) { return KEY_MOUSE; }
static inline int rhr_key_f(int n) { return KEY_F(n); }

/* The mouse events the dashboard asks for: a left-button press and the wheel (buttons 4 and 5). */
static inline mmask_t rhr_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t rhr_wheel_up(void) { return BUTTON4_PRESSED; }
static inline mmask_t rhr_wheel_down(void) { return BUTTON5_PRESSED; }
static inline mmask_t rhr_mouse_events(void) { return BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED; }

/* A terminfo string capability, or NULL when the terminal has none. */
static inline const char *rhr_terminfo_string(const char *name) {
    char *value = tigetstr(name);
    if (value == NULL || value == (char *)-1) return NULL;
    return value;
}

/* Whether terminfo has an entry for `name`: loaded and let go again, writing nothing to the terminal (newterm would
   start the alternate screen, over what rhr says before it). */
static inline int rhr_terminfo_exists(const char *name) {
    TERMINAL *saved = cur_term;
    int error = 0;
    if (setupterm((char *)name, 1, &error) != OK) {
        set_curterm(saved);
        return 0;
    }
    TERMINAL *loaded = cur_term;
    set_curterm(saved);
    del_curterm(loaded);
    return 1;
}

#endif
