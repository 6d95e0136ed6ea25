import { languageLabels, languages } from '@veriform/contracts';

/** The two form languages, labelled for people (SPEC §3). */
export const languageOptions = languages.map((value) => ({ value, label: languageLabels[value] }));
