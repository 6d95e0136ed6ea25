import { z } from 'zod';

/**
 * The countries whose phone numbers an account's forms may verify (issue 13, toll fraud): ISO 3166-1 alpha-2 codes as
 * libphonenumber-js names its regions (with its AC Ascension, TA Tristan da Cunha and XK Kosovo). Kept here as a plain
 * list, checked against libphonenumber-js's metadata by the server's tests, so the web app can offer the countries
 * without shipping phone metadata.
 */
// biome-ignore format: one line per initial keeps the 245 codes readable
export const PHONE_COUNTRIES = [
  'AC', 'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AR', 'AS', 'AT', 'AU', 'AW', 'AX', 'AZ',
  'BA', 'BB', 'BD', 'BE', 'BF', 'BG', 'BH', 'BI', 'BJ', 'BL', 'BM', 'BN', 'BO', 'BQ', 'BR', 'BS', 'BT', 'BW', 'BY', 'BZ',
  'CA', 'CC', 'CD', 'CF', 'CG', 'CH', 'CI', 'CK', 'CL', 'CM', 'CN', 'CO', 'CR', 'CU', 'CV', 'CW', 'CX', 'CY', 'CZ',
  'DE', 'DJ', 'DK', 'DM', 'DO', 'DZ',
  'EC', 'EE', 'EG', 'EH', 'ER', 'ES', 'ET',
  'FI', 'FJ', 'FK', 'FM', 'FO', 'FR',
  'GA', 'GB', 'GD', 'GE', 'GF', 'GG', 'GH', 'GI', 'GL', 'GM', 'GN', 'GP', 'GQ', 'GR', 'GT', 'GU', 'GW', 'GY',
  'HK', 'HN', 'HR', 'HT', 'HU',
  'ID', 'IE', 'IL', 'IM', 'IN', 'IO', 'IQ', 'IR', 'IS', 'IT',
  'JE', 'JM', 'JO', 'JP',
  'KE', 'KG', 'KH', 'KI', 'KM', 'KN', 'KP', 'KR', 'KW', 'KY', 'KZ',
  'LA', 'LB', 'LC', 'LI', 'LK', 'LR', 'LS', 'LT', 'LU', 'LV', 'LY',
  'MA', 'MC', 'MD', 'ME', 'MF', 'MG', 'MH', 'MK', 'ML', 'MM', 'MN', 'MO', 'MP', 'MQ', 'MR', 'MS', 'MT', 'MU', 'MV', 'MW', 'MX', 'MY', 'MZ',
  'NA', 'NC', 'NE', 'NF', 'NG', 'NI', 'NL', 'NO', 'NP', 'NR', 'NU', 'NZ',
  'OM',
  'PA', 'PE', 'PF', 'PG', 'PH', 'PK', 'PL', 'PM', 'PR', 'PS', 'PT', 'PW', 'PY',
  'QA',
  'RE', 'RO', 'RS', 'RU', 'RW',
  'SA', 'SB', 'SC', 'SD', 'SE', 'SG', 'SH', 'SI', 'SJ', 'SK', 'SL', 'SM', 'SN', 'SO', 'SR', 'SS', 'ST', 'SV', 'SX', 'SY', 'SZ',
  'TA', 'TC', 'TD', 'TG', 'TH', 'TJ', 'TK', 'TL', 'TM', 'TN', 'TO', 'TR', 'TT', 'TV', 'TW', 'TZ',
  'UA', 'UG', 'US', 'UY', 'UZ',
  'VA', 'VC', 'VE', 'VG', 'VI', 'VN', 'VU',
  'WF', 'WS',
  'XK',
  'YE', 'YT',
  'ZA', 'ZM', 'ZW',
] as const;
export type PhoneCountry = (typeof PHONE_COUNTRIES)[number];

export const phoneCountriesTexts = {
  unknown: (code: string) => `${code} is not a country code we know (two letters, for example US).`,
  empty: 'Choose at least one country.',
} as const;

/** The allow-list as an owner sends it: known codes, at least one; repeats are dropped, the order is kept. */
export const phoneCountriesSchema = z
  .array(
    z.enum(PHONE_COUNTRIES, {
      // Not String(input): an object whose toString is not a function (the fuzz suite sends one) would throw.
      error: (issue) =>
        phoneCountriesTexts.unknown(
          typeof issue.input === 'string' ? issue.input : JSON.stringify(issue.input),
        ),
    }),
  )
  .min(1, phoneCountriesTexts.empty)
  .max(PHONE_COUNTRIES.length * 2)
  .transform((codes) => [...new Set(codes)]);
