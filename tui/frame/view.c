/* A pane's narrow context (tui/frame/view.h): the message line. */
#include "config.h"

#include <curses.h>
#include <stdarg.h>
#include <stdio.h>

#include "tui/frame/view.h"

void view_vmessage(struct view *v, bool error, const char *fmt, va_list ap)
{
    vsnprintf(v->msg, sizeof(v->msg), fmt, ap);
    v->msg_error = error;
    v->dirty_chrome = true;
    if (error && !v->headless)
        beep();
}

void view_message(struct view *v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    view_vmessage(v, false, fmt, ap);
    va_end(ap);
}

void view_error(struct view *v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    view_vmessage(v, true, fmt, ap);
    va_end(ap);
}
