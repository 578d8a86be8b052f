/* Curses set-up for the terminal and for headless script mode. */
#include "config.h"

#include <curses.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/colors.h"
#include "tui/term.h"

static SCREEN *screen;
static FILE *tty_in, *null_out, *null_in;
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
    catch_signals();
    set_escdelay(25);
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED
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
