import { complianceBand, passRateIcon, type PassRateIcon, type Severity } from '@aegis/domain';

/** Report palette: a navy brand colour, neutral greys and the compliance bands (spec 1 §9). */
export const colours = {
  brand: '#14325C',
  brandLight: '#E8EEF7',
  accent: '#2F6FD6',
  text: '#1F2933',
  muted: '#616E7C',
  border: '#D9DEE5',
  zebra: '#F7F9FB',
  track: '#ECEFF3',
  green: '#2E8540',
  greenLight: '#E6F4EA',
  amber: '#D98E04',
  amberLight: '#FFF4DB',
  red: '#C62828',
  redLight: '#FDECEA',
} as const;

/** The band colour of a compliance percentage: ≥80 green, ≥50 amber, else red. */
export function bandColour(percentage: number): string {
  const { colour } = complianceBand(percentage);
  return colour === 'green' ? colours.green : colour === 'amber' ? colours.amber : colours.red;
}

export function bandLightColour(percentage: number): string {
  const { colour } = complianceBand(percentage);
  return colour === 'green'
    ? colours.greenLight
    : colour === 'amber'
      ? colours.amberLight
      : colours.redLight;
}

/** 'Excellent', 'Moderate' or 'Poor' (spec 1 §9 bands). */
export function bandName(percentage: number): string {
  const { band } = complianceBand(percentage);
  return band === 'excellent' ? 'Excellent' : band === 'moderate' ? 'Moderate' : 'Poor';
}

const ICON_PATHS: Record<PassRateIcon, (size: number) => string> = {
  tick: (s) =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="${s}" height="${s}" viewBox="0 0 24 24">` +
    `<circle cx="12" cy="12" r="12" fill="${colours.green}"/>` +
    `<path d="M6.5 12.5 L10.2 16.2 L17.5 8.4" fill="none" stroke="#FFFFFF" stroke-width="2.8" stroke-linecap="round" stroke-linejoin="round"/>` +
    `</svg>`,
  warning: (s) =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="${s}" height="${s}" viewBox="0 0 24 24">` +
    `<path d="M12 1.5 L23.2 21.8 L0.8 21.8 Z" fill="${colours.amber}" stroke="${colours.amber}" stroke-width="1.5" stroke-linejoin="round"/>` +
    `<path d="M12 8.2 L12 14.6" stroke="#FFFFFF" stroke-width="2.6" stroke-linecap="round"/>` +
    `<circle cx="12" cy="18.2" r="1.5" fill="#FFFFFF"/>` +
    `</svg>`,
  cross: (s) =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="${s}" height="${s}" viewBox="0 0 24 24">` +
    `<circle cx="12" cy="12" r="12" fill="${colours.red}"/>` +
    `<path d="M7.8 7.8 L16.2 16.2 M16.2 7.8 L7.8 16.2" stroke="#FFFFFF" stroke-width="2.8" stroke-linecap="round"/>` +
    `</svg>`,
};

/** The pass-rate icon as vector SVG (spec 1 §9): ≥90 a tick, ≥70 a warning, otherwise a cross. */
export function passRateIconSvg(percentage: number, size: number): string {
  return ICON_PATHS[passRateIcon(percentage)](size);
}

/** How a report names each severity. */
export const SEVERITY_NAMES: Record<Severity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  prerequisite: 'Prerequisite',
};

/** A severity's colour in the reports. */
export const SEVERITY_COLOURS: Record<Severity, string> = {
  critical: colours.red,
  high: '#D9480F',
  medium: colours.amber,
  low: colours.green,
  prerequisite: colours.muted,
};
