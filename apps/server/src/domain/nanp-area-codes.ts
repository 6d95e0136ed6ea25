/**
 * Where a US number is (issue #35, "may I contact this number now?"): the state and the time zones of every assigned
 * US geographic area code (NPA) of the North American Numbering Plan, as data.
 *
 * Quiet hours are kept "in the called party's local time" (47 CFR 64.1200(c)(1)), and we cannot know where a mobile
 * phone is. Counsel's advice meanwhile is to take the time zone from the area code (REGULATORY-NOTES §2.4); Florida
 * and Oklahoma presume by statute that a number with one of their area codes belongs to a resident. So the state is
 * the area code's, and the zones are every zone that covers part of the area code's territory, the one covering
 * most of it first. A caller must then satisfy every one of them: a number in 850 may be in Pensacola (Central) or in
 * Tallahassee (Eastern).
 *
 * Zones are the legal ones as the IANA database names them. Places that keep an unofficial local time (Phenix City,
 * Alabama on Eastern; Jackpot, Nevada on Mountain) are not listed: the IANA database has no zone for them either.
 *
 * Compiled 2026-11-29 from NANPA's area code map (https://nationalnanpa.com/area_code_maps/ac_map_static.html) and
 * NPA reports (https://nationalnanpa.com), with the overlays in service or announced by then (the newest: 483
 * Alabama, 679 Michigan, 924 Minnesota, 457 Louisiana, 357 California), and the US Department of Transportation's
 * time zone boundaries (49 CFR part 71) for the area codes that straddle them.
 *
 * Not in the table, so a number with them is not placed: non-geographic codes (toll-free 800, 833, 844, 855, 866,
 * 877, 888; premium 900; personal 500 and 521–533, 544, 566, 577, 588; 700; 710 for the federal government), and the
 * area codes of Canada and of the Caribbean countries that are not US territories (the verdict is about US law).
 * US territories are in: Puerto Rico, the US Virgin Islands, Guam, the Northern Mariana Islands and American Samoa.
 *
 * Update the table when NANPA assigns a new code, and bump CALLING_RULES_VERSION in calling-windows.ts with it.
 */

/** The date this table was compiled (YYYY-MM-DD). */
export const AREA_CODES_COMPILED = '2026-11-29';

/** At least one zone: the one that covers most of the area code comes first. */
export type TimeZones = readonly [string, ...string[]];

export type AreaCode = {
  /** USPS code of the state, DC or territory (PR, VI, GU, MP, AS). */
  readonly state: string;
  /** IANA zone names, the one covering the largest share of the area code first. */
  readonly timeZones: TimeZones;
};

const EASTERN = 'America/New_York';
const MICHIGAN = 'America/Detroit';
const INDIANA = 'America/Indiana/Indianapolis';
const CENTRAL = 'America/Chicago';
const MENOMINEE = 'America/Menominee';
const MOUNTAIN = 'America/Denver';
const BOISE = 'America/Boise';
const ARIZONA = 'America/Phoenix';
const PACIFIC = 'America/Los_Angeles';
const ALASKA = 'America/Anchorage';
const ADAK = 'America/Adak';
const HAWAII = 'Pacific/Honolulu';
const PUERTO_RICO = 'America/Puerto_Rico';
const VIRGIN_ISLANDS = 'America/St_Thomas';
const GUAM = 'Pacific/Guam';
const SAIPAN = 'Pacific/Saipan';
const PAGO_PAGO = 'Pacific/Pago_Pago';

/**
 * NPA → state and zones. A comment names the part of a straddling area code that is in its second zone, and for the
 * newer overlays (a second code for the same territory) the code they were added to.
 */
export const US_AREA_CODES: Readonly<Record<string, AreaCode>> = {
  '201': { state: 'NJ', timeZones: [EASTERN] },
  '202': { state: 'DC', timeZones: [EASTERN] },
  '203': { state: 'CT', timeZones: [EASTERN] },
  '205': { state: 'AL', timeZones: [CENTRAL] },
  '206': { state: 'WA', timeZones: [PACIFIC] },
  '207': { state: 'ME', timeZones: [EASTERN] },
  '208': { state: 'ID', timeZones: [BOISE, PACIFIC] }, // the panhandle and north of the Salmon River are Pacific
  '209': { state: 'CA', timeZones: [PACIFIC] },
  '210': { state: 'TX', timeZones: [CENTRAL] },
  '212': { state: 'NY', timeZones: [EASTERN] },
  '213': { state: 'CA', timeZones: [PACIFIC] },
  '214': { state: 'TX', timeZones: [CENTRAL] },
  '215': { state: 'PA', timeZones: [EASTERN] },
  '216': { state: 'OH', timeZones: [EASTERN] },
  '217': { state: 'IL', timeZones: [CENTRAL] },
  '218': { state: 'MN', timeZones: [CENTRAL] },
  '219': { state: 'IN', timeZones: [CENTRAL, INDIANA] }, // Lake, Porter, LaPorte, Jasper, Newton: Central; the rest Eastern
  '220': { state: 'OH', timeZones: [EASTERN] },
  '223': { state: 'PA', timeZones: [EASTERN] },
  '224': { state: 'IL', timeZones: [CENTRAL] },
  '225': { state: 'LA', timeZones: [CENTRAL] },
  '227': { state: 'MD', timeZones: [EASTERN] }, // 240/301 overlay
  '228': { state: 'MS', timeZones: [CENTRAL] },
  '229': { state: 'GA', timeZones: [EASTERN] },
  '231': { state: 'MI', timeZones: [MICHIGAN] },
  '234': { state: 'OH', timeZones: [EASTERN] },
  '235': { state: 'MO', timeZones: [CENTRAL] }, // 573 overlay
  '239': { state: 'FL', timeZones: [EASTERN] },
  '240': { state: 'MD', timeZones: [EASTERN] },
  '248': { state: 'MI', timeZones: [MICHIGAN] },
  '251': { state: 'AL', timeZones: [CENTRAL] },
  '252': { state: 'NC', timeZones: [EASTERN] },
  '253': { state: 'WA', timeZones: [PACIFIC] },
  '254': { state: 'TX', timeZones: [CENTRAL] },
  '256': { state: 'AL', timeZones: [CENTRAL] },
  '260': { state: 'IN', timeZones: [INDIANA] },
  '262': { state: 'WI', timeZones: [CENTRAL] },
  '267': { state: 'PA', timeZones: [EASTERN] },
  '269': { state: 'MI', timeZones: [MICHIGAN] },
  '270': { state: 'KY', timeZones: [CENTRAL, EASTERN] }, // Hardin, Meade, LaRue, Taylor, Green, Marion: Eastern
  '272': { state: 'PA', timeZones: [EASTERN] },
  '274': { state: 'WI', timeZones: [CENTRAL] }, // 920 overlay
  '276': { state: 'VA', timeZones: [EASTERN] },
  '279': { state: 'CA', timeZones: [PACIFIC] },
  '281': { state: 'TX', timeZones: [CENTRAL] },
  '283': { state: 'OH', timeZones: [EASTERN] }, // 513 overlay
  '301': { state: 'MD', timeZones: [EASTERN] },
  '302': { state: 'DE', timeZones: [EASTERN] },
  '303': { state: 'CO', timeZones: [MOUNTAIN] },
  '304': { state: 'WV', timeZones: [EASTERN] },
  '305': { state: 'FL', timeZones: [EASTERN] },
  '307': { state: 'WY', timeZones: [MOUNTAIN] },
  '308': { state: 'NE', timeZones: [CENTRAL, MOUNTAIN] }, // the panhandle and south-west (Scottsbluff, Ogallala): Mountain
  '309': { state: 'IL', timeZones: [CENTRAL] },
  '310': { state: 'CA', timeZones: [PACIFIC] },
  '312': { state: 'IL', timeZones: [CENTRAL] },
  '313': { state: 'MI', timeZones: [MICHIGAN] },
  '314': { state: 'MO', timeZones: [CENTRAL] },
  '315': { state: 'NY', timeZones: [EASTERN] },
  '316': { state: 'KS', timeZones: [CENTRAL] },
  '317': { state: 'IN', timeZones: [INDIANA] },
  '318': { state: 'LA', timeZones: [CENTRAL] },
  '319': { state: 'IA', timeZones: [CENTRAL] },
  '320': { state: 'MN', timeZones: [CENTRAL] },
  '321': { state: 'FL', timeZones: [EASTERN] },
  '323': { state: 'CA', timeZones: [PACIFIC] },
  '324': { state: 'FL', timeZones: [EASTERN] }, // 904 overlay
  '325': { state: 'TX', timeZones: [CENTRAL] },
  '326': { state: 'OH', timeZones: [EASTERN] }, // 937 overlay
  '327': { state: 'AR', timeZones: [CENTRAL] }, // 870 overlay
  '329': { state: 'NY', timeZones: [EASTERN] }, // 845 overlay
  '330': { state: 'OH', timeZones: [EASTERN] },
  '331': { state: 'IL', timeZones: [CENTRAL] },
  '332': { state: 'NY', timeZones: [EASTERN] },
  '334': { state: 'AL', timeZones: [CENTRAL] },
  '336': { state: 'NC', timeZones: [EASTERN] },
  '337': { state: 'LA', timeZones: [CENTRAL] },
  '339': { state: 'MA', timeZones: [EASTERN] },
  '340': { state: 'VI', timeZones: [VIRGIN_ISLANDS] },
  '341': { state: 'CA', timeZones: [PACIFIC] },
  '346': { state: 'TX', timeZones: [CENTRAL] },
  '347': { state: 'NY', timeZones: [EASTERN] },
  '350': { state: 'CA', timeZones: [PACIFIC] }, // 209 overlay
  '351': { state: 'MA', timeZones: [EASTERN] },
  '352': { state: 'FL', timeZones: [EASTERN] },
  '353': { state: 'WI', timeZones: [CENTRAL] }, // 608 overlay
  '357': { state: 'CA', timeZones: [PACIFIC] }, // 559 overlay, 2025
  '360': { state: 'WA', timeZones: [PACIFIC] },
  '361': { state: 'TX', timeZones: [CENTRAL] },
  '363': { state: 'NY', timeZones: [EASTERN] }, // 516 overlay
  '364': { state: 'KY', timeZones: [CENTRAL, EASTERN] }, // overlay of 270
  '369': { state: 'CA', timeZones: [PACIFIC] }, // 707 overlay
  '380': { state: 'OH', timeZones: [EASTERN] }, // 614 overlay
  '385': { state: 'UT', timeZones: [MOUNTAIN] },
  '386': { state: 'FL', timeZones: [EASTERN] },
  '401': { state: 'RI', timeZones: [EASTERN] },
  '402': { state: 'NE', timeZones: [CENTRAL] },
  '404': { state: 'GA', timeZones: [EASTERN] },
  '405': { state: 'OK', timeZones: [CENTRAL] },
  '406': { state: 'MT', timeZones: [MOUNTAIN] },
  '407': { state: 'FL', timeZones: [EASTERN] },
  '408': { state: 'CA', timeZones: [PACIFIC] },
  '409': { state: 'TX', timeZones: [CENTRAL] },
  '410': { state: 'MD', timeZones: [EASTERN] },
  '412': { state: 'PA', timeZones: [EASTERN] },
  '413': { state: 'MA', timeZones: [EASTERN] },
  '414': { state: 'WI', timeZones: [CENTRAL] },
  '415': { state: 'CA', timeZones: [PACIFIC] },
  '417': { state: 'MO', timeZones: [CENTRAL] },
  '419': { state: 'OH', timeZones: [EASTERN] },
  '423': { state: 'TN', timeZones: [EASTERN, CENTRAL] }, // Marion, Sequatchie, Bledsoe counties: Central
  '424': { state: 'CA', timeZones: [PACIFIC] },
  '425': { state: 'WA', timeZones: [PACIFIC] },
  '430': { state: 'TX', timeZones: [CENTRAL] },
  '432': { state: 'TX', timeZones: [CENTRAL, MOUNTAIN] }, // Culberson County (Van Horn): Mountain
  '434': { state: 'VA', timeZones: [EASTERN] },
  '435': { state: 'UT', timeZones: [MOUNTAIN] },
  '436': { state: 'OH', timeZones: [EASTERN] }, // 440 overlay, 2024
  '440': { state: 'OH', timeZones: [EASTERN] },
  '442': { state: 'CA', timeZones: [PACIFIC] },
  '443': { state: 'MD', timeZones: [EASTERN] },
  '445': { state: 'PA', timeZones: [EASTERN] }, // 215/267 overlay
  '447': { state: 'IL', timeZones: [CENTRAL] },
  '448': { state: 'FL', timeZones: [CENTRAL, EASTERN] }, // overlay of 850
  '457': { state: 'LA', timeZones: [CENTRAL] }, // 318 overlay, 2025
  '458': { state: 'OR', timeZones: [PACIFIC, BOISE] }, // overlay of 541
  '463': { state: 'IN', timeZones: [INDIANA] },
  '464': { state: 'IL', timeZones: [CENTRAL] },
  '469': { state: 'TX', timeZones: [CENTRAL] },
  '470': { state: 'GA', timeZones: [EASTERN] },
  '472': { state: 'NC', timeZones: [EASTERN] }, // 910 overlay
  '475': { state: 'CT', timeZones: [EASTERN] },
  '478': { state: 'GA', timeZones: [EASTERN] },
  '479': { state: 'AR', timeZones: [CENTRAL] },
  '480': { state: 'AZ', timeZones: [ARIZONA] },
  '483': { state: 'AL', timeZones: [CENTRAL] }, // 334 overlay, 2026
  '484': { state: 'PA', timeZones: [EASTERN] },
  '501': { state: 'AR', timeZones: [CENTRAL] },
  '502': { state: 'KY', timeZones: [EASTERN] },
  '503': { state: 'OR', timeZones: [PACIFIC] },
  '504': { state: 'LA', timeZones: [CENTRAL] },
  '505': { state: 'NM', timeZones: [MOUNTAIN] },
  '507': { state: 'MN', timeZones: [CENTRAL] },
  '508': { state: 'MA', timeZones: [EASTERN] },
  '509': { state: 'WA', timeZones: [PACIFIC] },
  '510': { state: 'CA', timeZones: [PACIFIC] },
  '512': { state: 'TX', timeZones: [CENTRAL] },
  '513': { state: 'OH', timeZones: [EASTERN] },
  '515': { state: 'IA', timeZones: [CENTRAL] },
  '516': { state: 'NY', timeZones: [EASTERN] },
  '517': { state: 'MI', timeZones: [MICHIGAN] },
  '518': { state: 'NY', timeZones: [EASTERN] },
  '520': { state: 'AZ', timeZones: [ARIZONA] },
  '530': { state: 'CA', timeZones: [PACIFIC] },
  '531': { state: 'NE', timeZones: [CENTRAL] },
  '534': { state: 'WI', timeZones: [CENTRAL] },
  '539': { state: 'OK', timeZones: [CENTRAL] },
  '540': { state: 'VA', timeZones: [EASTERN] },
  '541': { state: 'OR', timeZones: [PACIFIC, BOISE] }, // Malheur County (Ontario): Mountain
  '551': { state: 'NJ', timeZones: [EASTERN] },
  '557': { state: 'MO', timeZones: [CENTRAL] }, // 314 overlay
  '559': { state: 'CA', timeZones: [PACIFIC] },
  '561': { state: 'FL', timeZones: [EASTERN] },
  '562': { state: 'CA', timeZones: [PACIFIC] },
  '563': { state: 'IA', timeZones: [CENTRAL] },
  '564': { state: 'WA', timeZones: [PACIFIC] },
  '567': { state: 'OH', timeZones: [EASTERN] },
  '570': { state: 'PA', timeZones: [EASTERN] },
  '571': { state: 'VA', timeZones: [EASTERN] },
  '572': { state: 'OK', timeZones: [CENTRAL] },
  '573': { state: 'MO', timeZones: [CENTRAL] },
  '574': { state: 'IN', timeZones: [INDIANA, CENTRAL] }, // Starke County (Knox): Central
  '575': { state: 'NM', timeZones: [MOUNTAIN] },
  '580': { state: 'OK', timeZones: [CENTRAL] },
  '582': { state: 'PA', timeZones: [EASTERN] }, // 814 overlay
  '585': { state: 'NY', timeZones: [EASTERN] },
  '586': { state: 'MI', timeZones: [MICHIGAN] },
  '601': { state: 'MS', timeZones: [CENTRAL] },
  '602': { state: 'AZ', timeZones: [ARIZONA] },
  '603': { state: 'NH', timeZones: [EASTERN] },
  '605': { state: 'SD', timeZones: [CENTRAL, MOUNTAIN] }, // west of the Missouri River (Rapid City): Mountain
  '606': { state: 'KY', timeZones: [EASTERN, CENTRAL] }, // Clinton County (Albany): Central
  '607': { state: 'NY', timeZones: [EASTERN] },
  '608': { state: 'WI', timeZones: [CENTRAL] },
  '609': { state: 'NJ', timeZones: [EASTERN] },
  '610': { state: 'PA', timeZones: [EASTERN] },
  '612': { state: 'MN', timeZones: [CENTRAL] },
  '614': { state: 'OH', timeZones: [EASTERN] },
  '615': { state: 'TN', timeZones: [CENTRAL] },
  '616': { state: 'MI', timeZones: [MICHIGAN] },
  '617': { state: 'MA', timeZones: [EASTERN] },
  '618': { state: 'IL', timeZones: [CENTRAL] },
  '619': { state: 'CA', timeZones: [PACIFIC] },
  '620': { state: 'KS', timeZones: [CENTRAL, MOUNTAIN] }, // Greeley and Hamilton counties: Mountain
  '623': { state: 'AZ', timeZones: [ARIZONA] },
  '624': { state: 'NY', timeZones: [EASTERN] }, // 716 overlay, 2023
  '626': { state: 'CA', timeZones: [PACIFIC] },
  '628': { state: 'CA', timeZones: [PACIFIC] },
  '629': { state: 'TN', timeZones: [CENTRAL] },
  '630': { state: 'IL', timeZones: [CENTRAL] },
  '631': { state: 'NY', timeZones: [EASTERN] },
  '636': { state: 'MO', timeZones: [CENTRAL] },
  '640': { state: 'NJ', timeZones: [EASTERN] },
  '641': { state: 'IA', timeZones: [CENTRAL] },
  '645': { state: 'FL', timeZones: [EASTERN] }, // 305/786 overlay
  '646': { state: 'NY', timeZones: [EASTERN] },
  '650': { state: 'CA', timeZones: [PACIFIC] },
  '651': { state: 'MN', timeZones: [CENTRAL] },
  '656': { state: 'FL', timeZones: [EASTERN] }, // 813 overlay
  '657': { state: 'CA', timeZones: [PACIFIC] },
  '659': { state: 'AL', timeZones: [CENTRAL] },
  '660': { state: 'MO', timeZones: [CENTRAL] },
  '661': { state: 'CA', timeZones: [PACIFIC] },
  '662': { state: 'MS', timeZones: [CENTRAL] },
  '667': { state: 'MD', timeZones: [EASTERN] },
  '669': { state: 'CA', timeZones: [PACIFIC] },
  '670': { state: 'MP', timeZones: [SAIPAN] },
  '671': { state: 'GU', timeZones: [GUAM] },
  '678': { state: 'GA', timeZones: [EASTERN] },
  '679': { state: 'MI', timeZones: [MICHIGAN] }, // 313 overlay, 2025
  '680': { state: 'NY', timeZones: [EASTERN] },
  '681': { state: 'WV', timeZones: [EASTERN] },
  '682': { state: 'TX', timeZones: [CENTRAL] },
  '684': { state: 'AS', timeZones: [PAGO_PAGO] },
  '686': { state: 'VA', timeZones: [EASTERN] }, // 804 overlay
  '689': { state: 'FL', timeZones: [EASTERN] }, // 407/321 overlay
  '701': { state: 'ND', timeZones: [CENTRAL, MOUNTAIN] }, // the south-west (Dickinson, Bowman): Mountain
  '702': { state: 'NV', timeZones: [PACIFIC] },
  '703': { state: 'VA', timeZones: [EASTERN] },
  '704': { state: 'NC', timeZones: [EASTERN] },
  '706': { state: 'GA', timeZones: [EASTERN] },
  '707': { state: 'CA', timeZones: [PACIFIC] },
  '708': { state: 'IL', timeZones: [CENTRAL] },
  '712': { state: 'IA', timeZones: [CENTRAL] },
  '713': { state: 'TX', timeZones: [CENTRAL] },
  '714': { state: 'CA', timeZones: [PACIFIC] },
  '715': { state: 'WI', timeZones: [CENTRAL] },
  '716': { state: 'NY', timeZones: [EASTERN] },
  '717': { state: 'PA', timeZones: [EASTERN] },
  '718': { state: 'NY', timeZones: [EASTERN] },
  '719': { state: 'CO', timeZones: [MOUNTAIN] },
  '720': { state: 'CO', timeZones: [MOUNTAIN] },
  '724': { state: 'PA', timeZones: [EASTERN] },
  '725': { state: 'NV', timeZones: [PACIFIC] },
  '726': { state: 'TX', timeZones: [CENTRAL] },
  '727': { state: 'FL', timeZones: [EASTERN] },
  '728': { state: 'FL', timeZones: [EASTERN] }, // 561 overlay
  '730': { state: 'IL', timeZones: [CENTRAL] }, // 618 overlay
  '731': { state: 'TN', timeZones: [CENTRAL] },
  '732': { state: 'NJ', timeZones: [EASTERN] },
  '734': { state: 'MI', timeZones: [MICHIGAN] },
  '737': { state: 'TX', timeZones: [CENTRAL] },
  '738': { state: 'CA', timeZones: [PACIFIC] }, // 213/323 overlay
  '740': { state: 'OH', timeZones: [EASTERN] },
  '743': { state: 'NC', timeZones: [EASTERN] }, // 336 overlay
  '747': { state: 'CA', timeZones: [PACIFIC] },
  '748': { state: 'CO', timeZones: [MOUNTAIN] }, // 970 overlay
  '754': { state: 'FL', timeZones: [EASTERN] },
  '757': { state: 'VA', timeZones: [EASTERN] },
  '760': { state: 'CA', timeZones: [PACIFIC] },
  '762': { state: 'GA', timeZones: [EASTERN] },
  '763': { state: 'MN', timeZones: [CENTRAL] },
  '765': { state: 'IN', timeZones: [INDIANA] },
  '769': { state: 'MS', timeZones: [CENTRAL] },
  '770': { state: 'GA', timeZones: [EASTERN] },
  '771': { state: 'DC', timeZones: [EASTERN] }, // 202 overlay
  '772': { state: 'FL', timeZones: [EASTERN] },
  '773': { state: 'IL', timeZones: [CENTRAL] },
  '774': { state: 'MA', timeZones: [EASTERN] },
  '775': { state: 'NV', timeZones: [PACIFIC, MOUNTAIN] }, // West Wendover is on Mountain time
  '779': { state: 'IL', timeZones: [CENTRAL] },
  '781': { state: 'MA', timeZones: [EASTERN] },
  '785': { state: 'KS', timeZones: [CENTRAL, MOUNTAIN] }, // Sherman and Wallace counties: Mountain
  '786': { state: 'FL', timeZones: [EASTERN] },
  '787': { state: 'PR', timeZones: [PUERTO_RICO] },
  '801': { state: 'UT', timeZones: [MOUNTAIN] },
  '802': { state: 'VT', timeZones: [EASTERN] },
  '803': { state: 'SC', timeZones: [EASTERN] },
  '804': { state: 'VA', timeZones: [EASTERN] },
  '805': { state: 'CA', timeZones: [PACIFIC] },
  '806': { state: 'TX', timeZones: [CENTRAL] },
  '808': { state: 'HI', timeZones: [HAWAII] },
  '810': { state: 'MI', timeZones: [MICHIGAN] },
  '812': { state: 'IN', timeZones: [INDIANA, CENTRAL] }, // the Evansville corner (six counties): Central
  '813': { state: 'FL', timeZones: [EASTERN] },
  '814': { state: 'PA', timeZones: [EASTERN] },
  '815': { state: 'IL', timeZones: [CENTRAL] },
  '816': { state: 'MO', timeZones: [CENTRAL] },
  '817': { state: 'TX', timeZones: [CENTRAL] },
  '818': { state: 'CA', timeZones: [PACIFIC] },
  '820': { state: 'CA', timeZones: [PACIFIC] },
  '821': { state: 'SC', timeZones: [EASTERN] }, // 864 overlay
  '826': { state: 'VA', timeZones: [EASTERN] }, // 540 overlay
  '828': { state: 'NC', timeZones: [EASTERN] },
  '830': { state: 'TX', timeZones: [CENTRAL] },
  '831': { state: 'CA', timeZones: [PACIFIC] },
  '832': { state: 'TX', timeZones: [CENTRAL] },
  '835': { state: 'PA', timeZones: [EASTERN] }, // 610/484 overlay
  '838': { state: 'NY', timeZones: [EASTERN] },
  '839': { state: 'SC', timeZones: [EASTERN] }, // 803 overlay
  '840': { state: 'CA', timeZones: [PACIFIC] },
  '843': { state: 'SC', timeZones: [EASTERN] },
  '845': { state: 'NY', timeZones: [EASTERN] },
  '847': { state: 'IL', timeZones: [CENTRAL] },
  '848': { state: 'NJ', timeZones: [EASTERN] },
  '850': { state: 'FL', timeZones: [CENTRAL, EASTERN] }, // west of the Apalachicola: Central; Tallahassee: Eastern
  '854': { state: 'SC', timeZones: [EASTERN] },
  '856': { state: 'NJ', timeZones: [EASTERN] },
  '857': { state: 'MA', timeZones: [EASTERN] },
  '858': { state: 'CA', timeZones: [PACIFIC] },
  '859': { state: 'KY', timeZones: [EASTERN] },
  '860': { state: 'CT', timeZones: [EASTERN] },
  '861': { state: 'IL', timeZones: [CENTRAL] }, // 309 overlay, 2023
  '862': { state: 'NJ', timeZones: [EASTERN] },
  '863': { state: 'FL', timeZones: [EASTERN] },
  '864': { state: 'SC', timeZones: [EASTERN] },
  '865': { state: 'TN', timeZones: [EASTERN] }, // Knoxville: East Tennessee is Eastern
  '870': { state: 'AR', timeZones: [CENTRAL] },
  '872': { state: 'IL', timeZones: [CENTRAL] },
  '878': { state: 'PA', timeZones: [EASTERN] },
  '901': { state: 'TN', timeZones: [CENTRAL] },
  '903': { state: 'TX', timeZones: [CENTRAL] },
  '904': { state: 'FL', timeZones: [EASTERN] },
  '906': { state: 'MI', timeZones: [MICHIGAN, MENOMINEE] }, // the four counties on the Wisconsin line: Central
  '907': { state: 'AK', timeZones: [ALASKA, ADAK] }, // Adak and Atka (west of 169°30′W): Hawaii-Aleutian
  '908': { state: 'NJ', timeZones: [EASTERN] },
  '909': { state: 'CA', timeZones: [PACIFIC] },
  '910': { state: 'NC', timeZones: [EASTERN] },
  '912': { state: 'GA', timeZones: [EASTERN] },
  '913': { state: 'KS', timeZones: [CENTRAL] },
  '914': { state: 'NY', timeZones: [EASTERN] },
  '915': { state: 'TX', timeZones: [MOUNTAIN] }, // El Paso and Hudspeth counties
  '916': { state: 'CA', timeZones: [PACIFIC] },
  '917': { state: 'NY', timeZones: [EASTERN] },
  '918': { state: 'OK', timeZones: [CENTRAL] },
  '919': { state: 'NC', timeZones: [EASTERN] },
  '920': { state: 'WI', timeZones: [CENTRAL] },
  '924': { state: 'MN', timeZones: [CENTRAL] }, // 507 overlay, 2025
  '925': { state: 'CA', timeZones: [PACIFIC] },
  '928': { state: 'AZ', timeZones: [ARIZONA, MOUNTAIN] }, // the Navajo Nation keeps daylight saving time
  '929': { state: 'NY', timeZones: [EASTERN] },
  '930': { state: 'IN', timeZones: [INDIANA, CENTRAL] }, // overlay of 812
  '931': { state: 'TN', timeZones: [CENTRAL] },
  '934': { state: 'NY', timeZones: [EASTERN] },
  '936': { state: 'TX', timeZones: [CENTRAL] },
  '937': { state: 'OH', timeZones: [EASTERN] },
  '938': { state: 'AL', timeZones: [CENTRAL] },
  '939': { state: 'PR', timeZones: [PUERTO_RICO] },
  '940': { state: 'TX', timeZones: [CENTRAL] },
  '941': { state: 'FL', timeZones: [EASTERN] },
  '943': { state: 'GA', timeZones: [EASTERN] }, // 404/470/678/770 overlay
  '945': { state: 'TX', timeZones: [CENTRAL] }, // 214/469/972 overlay
  '947': { state: 'MI', timeZones: [MICHIGAN] },
  '948': { state: 'VA', timeZones: [EASTERN] }, // 757 overlay
  '949': { state: 'CA', timeZones: [PACIFIC] },
  '951': { state: 'CA', timeZones: [PACIFIC] },
  '952': { state: 'MN', timeZones: [CENTRAL] },
  '954': { state: 'FL', timeZones: [EASTERN] },
  '956': { state: 'TX', timeZones: [CENTRAL] },
  '959': { state: 'CT', timeZones: [EASTERN] },
  '970': { state: 'CO', timeZones: [MOUNTAIN] },
  '971': { state: 'OR', timeZones: [PACIFIC] },
  '972': { state: 'TX', timeZones: [CENTRAL] },
  '973': { state: 'NJ', timeZones: [EASTERN] },
  '975': { state: 'MO', timeZones: [CENTRAL] }, // 816 overlay
  '978': { state: 'MA', timeZones: [EASTERN] },
  '979': { state: 'TX', timeZones: [CENTRAL] },
  '980': { state: 'NC', timeZones: [EASTERN] },
  '983': { state: 'CO', timeZones: [MOUNTAIN] }, // 303/720 overlay
  '984': { state: 'NC', timeZones: [EASTERN] },
  '985': { state: 'LA', timeZones: [CENTRAL] },
  '986': { state: 'ID', timeZones: [BOISE, PACIFIC] }, // overlay of 208
  '989': { state: 'MI', timeZones: [MICHIGAN] },
};

export type NumberLocation = { npa: string; state: string; timeZones: TimeZones };

const US_E164 = /^\+1(\d{3})\d{7}$/;

/**
 * The area code, state and zones of a +1 number (E.164, e.g. '+12125550123'), or null when it is not a +1 number
 * with a US geographic area code: another country, Canada or the Caribbean, a toll-free or other non-geographic code.
 */
export function locateNumber(e164: string): NumberLocation | null {
  const npa = US_E164.exec(e164)?.[1];
  if (npa === undefined) return null;
  const areaCode = Object.hasOwn(US_AREA_CODES, npa) ? US_AREA_CODES[npa] : undefined;
  if (!areaCode) return null;
  return { npa, state: areaCode.state, timeZones: areaCode.timeZones };
}

/** The state (USPS code) of a +1 number's area code, or null when locateNumber cannot place it. */
export function stateOf(e164: string): string | null {
  return locateNumber(e164)?.state ?? null;
}
