import ICAL from 'ical.js'
import { tzlib_get_ical_block } from 'timezones-ical-library'
import { AppError } from '../../shared/errors'

const UTC_NAMES = new Set(['UTC', 'ETC/UTC', 'Z', 'GMT', 'ETC/GMT'])

/** True for UTC and every IANA zone name the runtime knows (`Europe/Paris`). */
export function isKnownZone(name: string): boolean {
  if (UTC_NAMES.has(name.toUpperCase())) return true
  try {
    new Intl.DateTimeFormat('en', { timeZone: name })
    return true
  } catch {
    return false
  }
}

/** Checks a zone an argument names; the error says what a zone looks like. */
export function requireZone(name: string): string {
  if (!isKnownZone(name))
    throw new AppError(
      'VALIDATION_FAILED',
      `Unknown time zone "${name}": give an IANA name such as Europe/Paris, America/New_York or UTC.`,
    )
  return UTC_NAMES.has(name.toUpperCase()) ? 'UTC' : name
}

/** The VTIMEZONE block of an IANA zone (current rules), or undefined for UTC and unknown names. */
export function vtimezoneText(name: string): string | undefined {
  if (name === 'UTC') return undefined
  const block = tzlib_get_ical_block(name)
  const text = Array.isArray(block) ? block[0] : undefined
  return text?.includes('BEGIN:VTIMEZONE') ? text.trim() : undefined
}

/**
 * The ical.js zone of a TZID: one a file defined (registered by `registerFileZones`), else the IANA
 * zone built from its VTIMEZONE; undefined for a name nobody defines.
 */
export function icalZone(tzid: string): ICAL.Timezone | undefined {
  if (UTC_NAMES.has(tzid.toUpperCase())) return ICAL.Timezone.utcTimezone
  if (ICAL.TimezoneService.has(tzid)) return ICAL.TimezoneService.get(tzid) ?? undefined
  if (!isKnownZone(tzid)) return undefined
  const text = vtimezoneText(tzid)
  if (!text) return undefined
  const component = new ICAL.Component(ICAL.parse(text) as unknown[])
  const zone = new ICAL.Timezone(component)
  ICAL.TimezoneService.register(zone, tzid)
  return zone
}

/** Registers a file's VTIMEZONE blocks and the IANA zones its TZIDs name, before ical.js decorates times. */
export function registerFileZones(calendar: ICAL.Component, text: string): void {
  for (const vtimezone of calendar.getAllSubcomponents('vtimezone')) {
    const tzid = vtimezone.getFirstPropertyValue('tzid')
    if (typeof tzid === 'string' && tzid) ICAL.TimezoneService.register(new ICAL.Timezone(vtimezone), tzid)
  }
  const seen = new Set<string>()
  for (const match of text.matchAll(/TZID=("[^"]*"|[^:;\r\n]*)/gi)) {
    const tzid = (match[1] ?? '').replace(/^"|"$/g, '')
    if (tzid && !seen.has(tzid)) {
      seen.add(tzid)
      icalZone(tzid)
    }
  }
}

/** The user's zone from the system (Intl), the default when Settings name none. */
export function systemZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
}
