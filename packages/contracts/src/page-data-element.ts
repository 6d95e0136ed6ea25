/**
 * The id of the `<script type="application/json">` holding the page data. Apart from its schema (initial-data.ts) so
 * that the web entry can read the data's raw shape without bringing zod (package subpath `./page-data-element`).
 */
export const INITIAL_DATA_ELEMENT_ID = 'initial-data';
