import ICAL from 'ical.js'
import { AppError } from '../../../shared/errors'
import { registerFileZones } from '../zones'
import { type ComponentSpan, type ScannedCalendar, scanCalendar } from './scan'

/** One VEVENT of a calendar text: ical.js's component and where its text lies. */
export interface ParsedEvent {
  readonly component: ICAL.Component
  readonly span: ComponentSpan
  readonly uid: string
  readonly recurrenceId?: string
}

/** A calendar text read: its events (masters and exceptions) and its structure for splicing. */
export interface ParsedCalendar {
  readonly text: string
  readonly where: string
  readonly scan: ScannedCalendar
  readonly calendar: ICAL.Component
  readonly events: ParsedEvent[]
}

/**
 * Reads an iCalendar text: the structure is checked line by line first (so a broken file is named by
 * its line), then ical.js parses it. Zones the file defines or names are registered before any time
 * is read.
 */
export function parseCalendar(text: string, where: string): ParsedCalendar {
  const scan = scanCalendar(text, where)
  let calendar: ICAL.Component
  try {
    calendar = new ICAL.Component(ICAL.parse(text) as unknown[])
  } catch (error) {
    throw new AppError(
      'VALIDATION_FAILED',
      `${where} is not a valid iCalendar file: ${error instanceof Error ? error.message : String(error)}.`,
      { cause: error },
    )
  }
  registerFileZones(calendar, text)
  const children = calendar.getAllSubcomponents()
  if (children.length !== scan.spans.length)
    throw new AppError(
      'VALIDATION_FAILED',
      `${where} is not a valid iCalendar file: its components could not be told apart.`,
    )
  const events: ParsedEvent[] = []
  children.forEach((component, index) => {
    if (component.name !== 'vevent') return
    const span = scan.spans[index]!
    const uid = span.uid ?? `line-${span.line}`
    events.push({
      component,
      span,
      uid,
      ...(span.recurrenceId !== undefined ? { recurrenceId: span.recurrenceId } : {}),
    })
  })
  return { text, where, scan, calendar, events }
}

/** The events of a UID: its master (no RECURRENCE-ID) first, then its exceptions. */
export function eventsOf(parsed: ParsedCalendar, uid: string): ParsedEvent[] {
  const all = parsed.events.filter((event) => event.uid === uid)
  return [
    ...all.filter((e) => e.recurrenceId === undefined),
    ...all.filter((e) => e.recurrenceId !== undefined),
  ]
}

const withEol = (text: string, eol: string) =>
  `${text.replace(/\r?\n/g, eol).replace(new RegExp(`${eol}$`), '')}${eol}`

/** The text with `components` (VTIMEZONE first) added before END:VCALENDAR, every other byte kept. */
export function insertComponents(parsed: ParsedCalendar, components: string[]): string {
  const { text, scan } = parsed
  const added = components.map((c) => withEol(c, scan.eol)).join('')
  const at = scan.endOffset
  const before = text.slice(0, at)
  const separator = before === '' || before.endsWith('\n') ? '' : scan.eol
  return `${before}${separator}${added}${text.slice(at)}`
}

/** The text with each span replaced by its text (undefined removes it), every other byte kept. */
export function replaceSpans(
  parsed: ParsedCalendar,
  replacements: Array<{ span: ComponentSpan; text: string | undefined }>,
): string {
  let result = parsed.text
  for (const { span, text } of [...replacements].sort((a, b) => b.span.from - a.span.from)) {
    const next = text === undefined ? '' : withEol(text, parsed.scan.eol)
    result = result.slice(0, span.from) + next + result.slice(span.to)
  }
  return result
}

/** A new, empty calendar text. */
export function emptyCalendar(): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Bureau//Calendar//EN',
    'CALSCALE:GREGORIAN',
    'END:VCALENDAR',
    '',
  ].join('\r\n')
}

/** TZIDs a calendar defines with VTIMEZONE. */
export function definedZones(parsed: ParsedCalendar): Set<string> {
  const zones = new Set<string>()
  for (const vtimezone of parsed.calendar.getAllSubcomponents('vtimezone')) {
    const tzid = vtimezone.getFirstPropertyValue('tzid')
    if (typeof tzid === 'string') zones.add(tzid)
  }
  return zones
}
