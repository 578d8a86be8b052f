/* Included by prog.c: a function whose code lies in a header. At -O0 it is
 * the first code of the unit, so the line table starts in this file (file
 * 1 of a DWARF 5 table, which gcc leaves to the file register's default). */
static inline int sym_from_header(int x)
{
    int y = x * 3;
    return y ^ (y >> 2);
}
