/* Curses set-up for the terminal and for headless script mode. */
#include "config.h"

#include <curses.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/frame/colors.h"
#include "tui/frame/keymap.h"
#include "tui/frame/term.h"

static SCREEN *screen;
static FILE *tty_in, *null_out, *null_in;
static bool clear_on_close; /* no alternate screen: clear it when leaving */
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
    (void)sig;
    stop = 1;
}

bool term_stop_requested(void)
{
    return stop != 0;
}

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* No SA_RESTART: a blocked read returns so the loop can leave. */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

/* Sequences that xterm, the VT220 family, rxvt and the Linux console send
 * for keys a terminfo entry may not describe (vt100 has no PgDn, Home or
 * End). Bound only where the entry binds nothing to the sequence, so that
 * they arrive as one key rather than Esc and a few characters. */
static const struct {
    const char *seq;
    int key;
} common_keys[] = {
    {"\033[A", KEY_UP},      {"\033[B", KEY_DOWN},    {"\033[C", KEY_RIGHT},
    {"\033[D", KEY_LEFT},    {"\033OA", KEY_UP},      {"\033OB", KEY_DOWN},
    {"\033OC", KEY_RIGHT},   {"\033OD", KEY_LEFT},    {"\033[H", KEY_HOME},
    {"\033[F", KEY_END},     {"\033OH", KEY_HOME},    {"\033OF", KEY_END},
    {"\033[1~", KEY_HOME},   {"\033[4~", KEY_END},    {"\033[7~", KEY_HOME},
    {"\033[8~", KEY_END},    {"\033[2~", KEY_IC},     {"\033[3~", KEY_DC},
    {"\033[5~", KEY_PPAGE},  {"\033[6~", KEY_NPAGE},  {"\033[Z", KEY_BTAB},
    {"\033OP", KEY_F(1)},    {"\033OQ", KEY_F(2)},    {"\033OR", KEY_F(3)},
    {"\033OS", KEY_F(4)},    {"\033[11~", KEY_F(1)},  {"\033[12~", KEY_F(2)},
    {"\033[13~", KEY_F(3)},  {"\033[14~", KEY_F(4)},  {"\033[15~", KEY_F(5)},
    {"\033[17~", KEY_F(6)},  {"\033[18~", KEY_F(7)},  {"\033[19~", KEY_F(8)},
    {"\033[20~", KEY_F(9)},  {"\033[21~", KEY_F(10)}, {"\033[23~", KEY_F(11)},
    {"\033[24~", KEY_F(12)},
};

static void define_common_keys(void)
{
    for (size_t i = 0; i < sizeof(common_keys) / sizeof(common_keys[0]); i++)
        if (key_defined(common_keys[i].seq) == 0)
            define_key(common_keys[i].seq, common_keys[i].key);
}

/* Keys of extended terminfo capabilities (curses codes above KEY_MAX,
 * named by the capability: "kcbt2" is the Linux console's second
 * Shift-Tab, "kUP5" xterm's Ctrl-Up) as the standard key they modify. */
static const struct {
    const char *cap;
    int key;
} extended_keys[] = {
    {"kcbt", KEY_BTAB},  {"kUP", KEY_UP},    {"kDN", KEY_DOWN}, {"kLFT", KEY_LEFT},
    {"kRIT", KEY_RIGHT}, {"kHOM", KEY_HOME}, {"kEND", KEY_END}, {"kNXT", KEY_NPAGE},
    {"kPRV", KEY_PPAGE}, {"kDC", KEY_DC},    {"kIC", KEY_IC},
};

int term_key_code(int code)
{
    if (code <= KEY_MAX)
        return code;
    const char *name = keyname(code);
    if (!name)
        return code;
    size_t len = strlen(name);
    while (len > 0 && name[len - 1] >= '0' && name[len - 1] <= '9')
        len--;
    for (size_t i = 0; i < sizeof(extended_keys) / sizeof(extended_keys[0]); i++)
        if (strlen(extended_keys[i].cap) == len && strncmp(name, extended_keys[i].cap, len) == 0)
            return extended_keys[i].key;
    return code;
}

bool term_unknown_sequence(WINDOW *w, char *buf, size_t n)
{
    wint_t ch;
    size_t k = 0;
    if (n < 2)
        return false;
    wtimeout(w, 0);
    int rc = wget_wch(w, &ch);
    if (rc != OK || (ch != '[' && ch != 'O')) {
        /* Esc alone, or Esc then a key of its own (Alt+key): that key
         * stays to be read. */
        if (rc == KEY_CODE_YES)
            ungetch((int)ch);
        else if (rc == OK)
            unget_wch(ch);
        return false;
    }
    buf[k++] = (char)ch;
    bool csi = ch == '[';
    /* CSI: parameter and intermediate bytes, then a final byte; SS3: one
     * final byte. */
    while (wget_wch(w, &ch) == OK && ch >= 0x20 && ch <= 0x7e) {
        if (k + 1 < n)
            buf[k++] = (char)ch;
        if (!csi || ch >= 0x40)
            break;
    }
    buf[k] = '\0';
    return true;
}

/* Whether the current terminal has string capability name. */
static bool has_cap(const char *name)
{
    const char *v = tigetstr((char *)name);
    return v && v != (const char *)-1 && *v;
}

bool term_open(bool mono)
{
    if (!isatty(STDOUT_FILENO)) {
        fprintf(stderr, "torchtop: the explorer needs a terminal; "
                        "use 'torchtop report TRACE' for text output\n");
        return false;
    }
    FILE *in = stdin;
    if (!isatty(STDIN_FILENO)) {
        /* The trace came on a pipe: keys come from the terminal. */
        tty_in = fopen("/dev/tty", "r");
        if (!tty_in) {
            fprintf(stderr, "torchtop: cannot open /dev/tty for keys\n");
            return false;
        }
        in = tty_in;
    }
    const char *term = getenv("TERM");
    screen = newterm(term && *term ? term : "xterm", stdout, in);
    if (!screen) {
        fprintf(stderr, "torchtop: cannot use the terminal type '%s'\n", term ? term : "");
        if (tty_in)
            fclose(tty_in);
        tty_in = NULL;
        return false;
    }
    set_term(screen);
    /* A terminal that cannot move the cursor (dumb, a printer) shows a
     * blank screen: refuse it as an unknown one. */
    if (!has_cap("cup")) {
        endwin();
        delscreen(screen);
        screen = NULL;
        fprintf(stderr,
                "torchtop: the terminal type '%s' cannot move the cursor; set TERM to the "
                "terminal's (e.g. xterm-256color) or use 'torchtop report TRACE'\n",
                term && *term ? term : "xterm");
        if (tty_in)
            fclose(tty_in);
        tty_in = NULL;
        return false;
    }
    clear_on_close = !has_cap("rmcup");
    catch_signals();
    set_escdelay(25);
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    define_common_keys();
    curs_set(0);
    /* Press and release too: a press and a release apart are a drag (or a
     * click held past the click interval); ncurses still folds a quick
     * press and release at one place into a click. */
    mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED |
                  BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
                  | BUTTON5_PRESSED
#endif
              ,
              NULL);
    mouseinterval(200);
    colors_init(mono ? THEME_MONO : THEME_DEFAULT);
    return true;
}

bool term_open_headless(int lines, int cols)
{
    /* Opened without O_CREAT: never make a file where the device is. */
    int wfd = open("/dev/null", O_WRONLY), rfd = open("/dev/null", O_RDONLY);
    null_out = wfd >= 0 ? fdopen(wfd, "w") : NULL;
    null_in = rfd >= 0 ? fdopen(rfd, "r") : NULL;
    if (!null_out || !null_in) {
        fprintf(stderr, "torchtop: cannot open /dev/null\n");
        return false;
    }
    /* The size comes from the script, never from the environment. */
    use_env(FALSE);
    const char *term = getenv("TERM");
    screen = term && *term ? newterm(term, null_out, null_in) : NULL;
    if (!screen)
        screen = newterm("xterm", null_out, null_in);
    if (!screen) {
        fprintf(stderr, "torchtop: no terminfo entry for xterm\n");
        return false;
    }
    set_term(screen);
    raw();
    noecho();
    keypad(stdscr, TRUE);
    colors_init(THEME_MONO);
    resize_term(lines, cols);
    return true;
}

void term_resize_headless(int lines, int cols)
{
    resize_term(lines, cols);
}

void term_close(void)
{
    if (!screen)
        return;
    if (clear_on_close) {
        /* No alternate screen to leave (vt100, the Linux console): the last
         * frame would stay under the shell prompt. */
        clear();
        refresh();
        clear_on_close = false;
    }
    endwin();
    delscreen(screen);
    screen = NULL;
    if (tty_in)
        fclose(tty_in);
    if (null_out)
        fclose(null_out);
    if (null_in)
        fclose(null_in);
    tty_in = null_out = null_in = NULL;
}

bool term_read_key(int *key)
{
    for (;;) {
        wint_t wch;
        int rc = get_wch(&wch);
        if (term_stop_requested())
            return false;
        if (rc == ERR)
            continue;
        if (rc == KEY_CODE_YES)
            wch = (wint_t)term_key_code((int)wch);
        *key = keymap_normalize((int)wch, rc == KEY_CODE_YES);
        return true;
    }
}
