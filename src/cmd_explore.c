/* torchtop [TRACE]: open the explorer (placeholder until the explorer lands). */
#include "config.h"

#include <stdio.h>

#include "src/commands.h"

int cmd_explore(int argc, char **argv)
{
    fprintf(stderr, "torchtop: the explorer is not built yet; try 'torchtop report TRACE'\n");
    return EXIT_FAILURE_RUN;
}
