/*
 * Print the project's PRM layout table (prm_layouts[]) for
 * tests/prm-conformance.py:
 *   L <layout> <size_bits> <from_ifc>
 *   F <field> <bit_offset> <width_bits>
 */
#include <stdio.h>

#include "prm.h"

int main(void)
{
    for (unsigned i = 0; i < prm_nlayouts; i++) {
        const PrmLayout *l = &prm_layouts[i];
        printf("L %s %u %d\n", l->name, l->bits, l->from_ifc);
        for (unsigned f = 0; f < l->nfields; f++) {
            printf("F %s %u %u\n", l->fields[f].name, l->fields[f].off, l->fields[f].width);
        }
    }
    return 0;
}
