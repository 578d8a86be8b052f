/* Subcommands of the torchtop program: one entry each, one file each. */
#ifndef TORCHTOP_SRC_COMMANDS_H
#define TORCHTOP_SRC_COMMANDS_H

#include <stdio.h>

struct command {
    const char *name;                  /* word after "torchtop" */
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
    const char *summary;               /* one line for --help */
};

int cmd_report(int argc, char **argv);
int cmd_explore(int argc, char **argv);
/* The explorer's options, one per line, for the general usage text. */
void explore_options(FILE *f);
int cmd_export(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_gen(int argc, char **argv);
/* gen --ranks N: a synthetic multi-rank job (cmd_genjob.c). */
int cmd_gen_job(int argc, char **argv);
int cmd_summarize(int argc, char **argv);
int cmd_symbolize(int argc, char **argv);

/* Exit statuses shared by every command. */
enum {
    EXIT_OK = 0,
    EXIT_FAILURE_RUN = 1, /* the command could not do its work */
    EXIT_BAD_INPUT = 2,   /* malformed, truncated or unreadable input */
    EXIT_USAGE = 64,      /* bad command line */
};

#endif
