/**
 * The named regions `country` conditions accept with `in_region` / `not_in_region`, as ISO 3166-1 alpha-2 codes.
 * Regions overlap on purpose (DE is in EU, EEA, Europe and DACH; MX in North America and Latin America).
 *
 * - EU: the 27 member states.
 * - EEA: the EU plus Iceland, Liechtenstein and Norway.
 * - Europe: the EEA plus the rest of geographic Europe (the UK, Switzerland, the Balkans, Ukraine, Belarus, Moldova,
 *   Russia, the microstates and the Crown dependencies, Faroe and Åland); Türkiye and the Caucasus are left out.
 * - North America: the United States, Canada, Mexico, Greenland, Bermuda, Saint Pierre and Miquelon.
 * - Latin America: the UN's "Latin America and the Caribbean" (Mexico, Central and South America, the Caribbean).
 * - APAC: East, Southeast and South Asia (from Pakistan eastwards) and Oceania.
 * - DACH: Germany, Austria, Switzerland.
 * - Nordics: Denmark, Finland, Iceland, Norway, Sweden, with the Faroe Islands, Greenland and Åland.
 */
const EU = [
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
];
const EEA = [...EU, 'IS', 'LI', 'NO'];
const REST_OF_EUROPE = ['GB', 'CH', 'AL', 'AD', 'BA', 'BY', 'FO', 'GG', 'GI', 'IM', 'JE', 'MC', 'MD', 'ME', 'MK', 'RS', 'RU', 'SM', 'UA', 'VA', 'AX', 'SJ'];
const CARIBBEAN = [
  'AG',
  'AI',
  'AW',
  'BB',
  'BL',
  'BQ',
  'BS',
  'CU',
  'CW',
  'DM',
  'DO',
  'GD',
  'GP',
  'HT',
  'JM',
  'KN',
  'KY',
  'LC',
  'MF',
  'MQ',
  'MS',
  'PR',
  'SX',
  'TC',
  'TT',
  'VC',
  'VG',
  'VI',
];
const CENTRAL_AMERICA = ['MX', 'BZ', 'CR', 'GT', 'HN', 'NI', 'PA', 'SV'];
const SOUTH_AMERICA = ['AR', 'BO', 'BR', 'CL', 'CO', 'EC', 'FK', 'GF', 'GY', 'PE', 'PY', 'SR', 'UY', 'VE'];
const ASIA = [
  'CN',
  'HK',
  'MO',
  'TW',
  'JP',
  'KR',
  'KP',
  'MN',
  'BN',
  'KH',
  'ID',
  'LA',
  'MY',
  'MM',
  'PH',
  'SG',
  'TH',
  'TL',
  'VN',
  'IN',
  'PK',
  'BD',
  'LK',
  'NP',
  'BT',
  'MV',
];
const OCEANIA = ['AU', 'NZ', 'PG', 'FJ', 'SB', 'VU', 'NC', 'PF', 'WS', 'TO', 'KI', 'FM', 'MH', 'NR', 'PW', 'TV', 'CK', 'NU', 'GU', 'MP', 'AS'];

export const REGIONS = {
  EU,
  EEA,
  Europe: [...EEA, ...REST_OF_EUROPE],
  'North America': ['US', 'CA', 'MX', 'GL', 'BM', 'PM'],
  'Latin America': [...CENTRAL_AMERICA, ...SOUTH_AMERICA, ...CARIBBEAN],
  APAC: [...ASIA, ...OCEANIA],
  DACH: ['DE', 'AT', 'CH'],
  Nordics: ['DK', 'FI', 'IS', 'NO', 'SE', 'FO', 'GL', 'AX'],
} as const satisfies Record<string, readonly string[]>;

export type RegionName = keyof typeof REGIONS;
export const REGION_NAMES = Object.keys(REGIONS) as RegionName[];

/** The region a name stands for, compared without case ("north america" is North America). */
export function findRegion(name: string): RegionName | undefined {
  return REGION_NAMES.find((region) => region.toLowerCase() === name.trim().toLowerCase());
}
