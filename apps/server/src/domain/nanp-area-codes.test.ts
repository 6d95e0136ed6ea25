import { describe, expect, it } from 'vitest';
import { AREA_CODES_COMPILED, locateNumber, stateOf, US_AREA_CODES } from './nanp-area-codes.ts';

// biome-ignore format: one list
const STATES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME',
  'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA',
  'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
];
const DC_AND_TERRITORIES = ['DC', 'PR', 'VI', 'GU', 'MP', 'AS'];
const entries = Object.entries(US_AREA_CODES);

/** The zone name Intl settles on (Node's ICU prefers the older names, e.g. America/Indianapolis). */
function canonicalZone(timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
}

describe('the US area-code table', () => {
  it('is dated and has every NPA as three digits of the NANP format, none an N11 service code', () => {
    expect(AREA_CODES_COMPILED).toBe('2026-11-29');
    expect(entries.length).toBeGreaterThan(360);
    for (const [npa] of entries) {
      expect(npa).toMatch(/^[2-9][0-8][0-9]$/);
      expect(npa.slice(1)).not.toBe('11');
    }
  });

  it('names only valid IANA zones, each at least once per area code', () => {
    const known = new Set(Intl.supportedValuesOf('timeZone'));
    for (const [npa, { timeZones }] of entries) {
      expect(timeZones.length, npa).toBeGreaterThan(0);
      expect(new Set(timeZones).size, npa).toBe(timeZones.length);
      for (const zone of timeZones) expect(known.has(canonicalZone(zone)), `${npa} ${zone}`).toBe(true);
    }
  });

  it('names only known state codes, and every state, DC and territory has an area code', () => {
    const known = new Set([...STATES, ...DC_AND_TERRITORIES]);
    for (const [npa, { state }] of entries) expect(known.has(state), `${npa} ${state}`).toBe(true);
    const covered = new Set(entries.map(([, { state }]) => state));
    for (const state of known) expect(covered.has(state), state).toBe(true);
  });

  it('places the spot checks', () => {
    const zones = (npa: string) => US_AREA_CODES[npa]?.timeZones;
    const state = (npa: string) => US_AREA_CODES[npa]?.state;
    expect([state('212'), zones('212')]).toEqual(['NY', ['America/New_York']]);
    expect([state('305'), zones('305')]).toEqual(['FL', ['America/New_York']]);
    expect([state('405'), zones('405')]).toEqual(['OK', ['America/Chicago']]);
    expect([state('410'), zones('410')]).toEqual(['MD', ['America/New_York']]);
    expect([state('214'), zones('214')]).toEqual(['TX', ['America/Chicago']]);
    expect([state('915'), zones('915')]).toEqual(['TX', ['America/Denver']]);
    expect([state('602'), zones('602')]).toEqual(['AZ', ['America/Phoenix']]);
    expect([state('808'), zones('808')]).toEqual(['HI', ['Pacific/Honolulu']]);
    expect(state('907')).toBe('AK');
    expect(zones('907')?.[0]).toBe('America/Anchorage');
    expect([
      state('202'),
      state('787'),
      state('939'),
      state('340'),
      state('671'),
      state('670'),
      state('684'),
    ]).toEqual(['DC', 'PR', 'PR', 'VI', 'GU', 'MP', 'AS']);
    expect(zones('317')).toEqual(['America/Indiana/Indianapolis']);
    expect(zones('313')).toEqual(['America/Detroit']);
  });

  it('lists both zones, the larger share first, exactly for the area codes that straddle a zone line', () => {
    const straddling = Object.fromEntries(entries.filter(([, { timeZones }]) => timeZones.length > 1));
    expect(Object.keys(straddling).sort()).toEqual(
      // biome-ignore format: one list
      ['208', '219', '270', '308', '364', '423', '432', '448', '458', '541', '574', '605', '606', '620', '701', '775',
        '785', '812', '850', '906', '907', '928', '930', '986'],
    );
    expect(US_AREA_CODES['850']?.timeZones).toEqual(['America/Chicago', 'America/New_York']);
    expect(US_AREA_CODES['541']?.timeZones).toEqual(['America/Los_Angeles', 'America/Boise']);
    expect(US_AREA_CODES['208']?.timeZones).toEqual(['America/Boise', 'America/Los_Angeles']);
    expect(US_AREA_CODES['605']?.timeZones).toEqual(['America/Chicago', 'America/Denver']);
    expect(US_AREA_CODES['812']?.timeZones).toEqual(['America/Indiana/Indianapolis', 'America/Chicago']);
    expect(US_AREA_CODES['906']?.timeZones).toEqual(['America/Detroit', 'America/Menominee']);
    // An overlay covers the same ground as its parent, so it has the same zones.
    for (const [overlay, parent] of [
      ['448', '850'],
      ['458', '541'],
      ['986', '208'],
      ['364', '270'],
      ['930', '812'],
    ] as const)
      expect(US_AREA_CODES[overlay], overlay).toEqual(US_AREA_CODES[parent]);
    // Tennessee's zone line runs through 423 (Marion, Sequatchie, Bledsoe are Central), not through 931 or 865.
    expect(US_AREA_CODES['931']?.timeZones).toEqual(['America/Chicago']);
    expect(US_AREA_CODES['865']?.timeZones).toEqual(['America/New_York']);
  });

  it('includes the overlays in service by late 2026', () => {
    // biome-ignore format: one table
    const overlays: Record<string, string> = {
      '689': 'FL', '656': 'FL', '448': 'FL', '645': 'FL', '728': 'FL', '324': 'FL', '329': 'NY', '363': 'NY',
      '624': 'NY', '350': 'CA', '357': 'CA', '369': 'CA', '738': 'CA', '483': 'AL', '274': 'WI', '353': 'WI',
      '945': 'TX', '726': 'TX', '983': 'CO', '748': 'CO', '679': 'MI', '924': 'MN', '436': 'OH', '380': 'OH',
      '283': 'OH', '457': 'LA', '861': 'IL', '730': 'IL', '227': 'MD', '572': 'OK', '943': 'GA', '472': 'NC',
      '835': 'PA', '582': 'PA', '771': 'DC', '826': 'VA', '686': 'VA', '948': 'VA', '235': 'MO', '557': 'MO',
      '821': 'SC', '839': 'SC', '327': 'AR', '986': 'ID',
    };
    for (const [npa, state] of Object.entries(overlays)) expect(US_AREA_CODES[npa]?.state, npa).toBe(state);
  });

  it('leaves out non-geographic codes and the codes of Canada and the Caribbean countries', () => {
    // The 5XX personal-communications codes are 521–529, 532, 533, 544, 566, 577, 588 and more: 530 is California's
    // and 531 Nebraska's, geographic codes in the middle of that range.
    // biome-ignore format: one list
    const nonGeographic = ['800', '833', '844', '855', '866', '877', '888', '900', '500', '521', '522', '523', '524',
      '525', '526', '527', '528', '529', '532', '533', '544', '566', '577', '588', '700', '710'];
    const canada = ['416', '604', '514', '204', '403', '867', '902'];
    const caribbean = ['876', '242', '809', '829', '849', '441', '868', '246'];
    for (const npa of [...nonGeographic, ...canada, ...caribbean])
      expect(US_AREA_CODES[npa], npa).toBeUndefined();
    expect(US_AREA_CODES['530']?.state).toBe('CA');
    expect(US_AREA_CODES['531']?.state).toBe('NE');
  });
});

describe('locateNumber and stateOf', () => {
  it('place a +1 number by its area code', () => {
    expect(locateNumber('+12125550123')).toEqual({
      npa: '212',
      state: 'NY',
      timeZones: ['America/New_York'],
    });
    expect(locateNumber('+18505550123')).toEqual({
      npa: '850',
      state: 'FL',
      timeZones: ['America/Chicago', 'America/New_York'],
    });
    expect(locateNumber('+17875550123')?.state).toBe('PR');
    expect(stateOf('+14055550123')).toBe('OK');
    expect(stateOf('+19155550123')).toBe('TX');
  });

  it('return null for what they cannot place', () => {
    for (const number of [
      '+442071234567', // the UK
      '+18005550123', // toll-free
      '+15005550123', // personal communications
      '+14165550123', // Toronto
      '+18765550123', // Jamaica
      '2125550123', // not E.164
      '+1212555012', // too short
      '+121255501234', // too long
      '+1 212 555 0123', // not E.164
      '',
    ]) {
      expect(locateNumber(number), number).toBeNull();
      expect(stateOf(number), number).toBeNull();
    }
  });

  it('does not read inherited object keys as area codes', () => {
    expect(locateNumber('+1__proto__')).toBeNull();
    expect(Object.hasOwn(US_AREA_CODES, 'constructor')).toBe(false);
  });
});
