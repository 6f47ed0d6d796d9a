/** Limits of memory_verify, apart from its code so that the tool's schema loads without the verification modules. */

/** Default and largest number of atoms one run verifies. */
export const VERIFY_DEFAULT_LIMIT = 50;
export const VERIFY_MAX_LIMIT = 1000;
/** Neighbours each atom is judged against. */
export const VERIFY_NEIGHBOURS = 8;
/** Most changes (and warnings) a result lists; totals count all. */
export const MAX_LISTED_CHANGES = 200;
