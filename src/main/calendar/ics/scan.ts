import { AppError } from '../../../shared/errors'

/** A direct child of VCALENDAR (VEVENT, VTIMEZONE, VTODO, …) with where its text lies in the file. */
export interface ComponentSpan {
  /** Upper-case component name. */
  readonly name: string
  /** Character offsets of the component's text, from `BEGIN:` to the line break after `END:` included. */
  readonly from: number
  readonly to: number
  /** 1-based line of its `BEGIN:` in the file. */
  readonly line: number
  /** The UID and RECURRENCE-ID lines' values (unfolded), for events. */
  readonly uid?: string
  readonly recurrenceId?: string
}

export interface ScannedCalendar {
  readonly spans: ComponentSpan[]
  /** Offset of the `END:VCALENDAR` line (where new components go). */
  readonly endOffset: number
  /** The file's line break, kept for inserted text. */
  readonly eol: '\r\n' | '\n'
}

const NAME = /^[A-Za-z0-9-]+$/

function malformed(where: string, line: number, what: string): AppError {
  return new AppError('VALIDATION_FAILED', `${where} is not a valid iCalendar file: line ${line}: ${what}.`)
}

/**
 * Checks the structure of an iCalendar text line by line (every content line `NAME[;params]:value`,
 * BEGIN/END nested and matched, one VCALENDAR) and finds the spans of its top-level components, so a
 * write can replace one event and leave every other byte of the file as it was.
 */
export function scanCalendar(text: string, where: string): ScannedCalendar {
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const spans: ComponentSpan[] = []
  const stack: Array<{ name: string; from: number; line: number; uid?: string; recurrenceId?: string }> = []
  let endOffset = -1
  let calendars = 0
  let offset = 0
  let lineNo = 0
  // A logical line: its first physical line's number and offset, and its unfolded text.
  let logical: { text: string; line: number; from: number } | undefined
  const finish = (next: number) => {
    if (!logical) return
    const { text: content, line, from } = logical
    logical = undefined
    if (content.trim() === '') return
    const colon = content.indexOf(':')
    const head = colon < 0 ? content : content.slice(0, colon)
    const name = head.split(';', 1)[0] ?? ''
    if (colon < 0 || !NAME.test(name))
      throw malformed(where, line, `expected NAME:value, found "${content.slice(0, 60)}"`)
    const value = content.slice(colon + 1).trim()
    const upper = name.toUpperCase()
    if (upper === 'BEGIN') {
      const component = value.toUpperCase()
      if (stack.length === 0) {
        if (component !== 'VCALENDAR')
          throw malformed(where, line, `expected BEGIN:VCALENDAR, found BEGIN:${value}`)
        calendars++
        if (calendars > 1) throw malformed(where, line, 'a second VCALENDAR (one calendar per file)')
      }
      stack.push({ name: component, from, line })
      return
    }
    if (upper === 'END') {
      const open = stack.pop()
      if (!open) throw malformed(where, line, `END:${value} without a matching BEGIN`)
      if (open.name !== value.toUpperCase())
        throw malformed(where, line, `END:${value} closes BEGIN:${open.name} of line ${open.line}`)
      if (stack.length === 0) endOffset = from
      if (stack.length === 1)
        spans.push({
          name: open.name,
          from: open.from,
          to: next,
          line: open.line,
          ...(open.uid !== undefined ? { uid: open.uid } : {}),
          ...(open.recurrenceId !== undefined ? { recurrenceId: open.recurrenceId } : {}),
        })
      return
    }
    if (stack.length === 0) throw malformed(where, line, `"${name}" outside BEGIN:VCALENDAR … END:VCALENDAR`)
    const top = stack[stack.length - 1]!
    if (stack.length === 2 && upper === 'UID') top.uid = value
    if (stack.length === 2 && upper === 'RECURRENCE-ID') top.recurrenceId = value
  }
  while (offset < text.length) {
    let end = text.indexOf('\n', offset)
    const next = end < 0 ? text.length : end + 1
    if (end < 0) end = text.length
    const raw = text.slice(offset, end > offset && text[end - 1] === '\r' ? end - 1 : end)
    lineNo++
    if ((raw.startsWith(' ') || raw.startsWith('\t')) && logical) {
      logical.text += raw.slice(1)
    } else {
      finish(offset)
      logical = { text: raw, line: lineNo, from: offset }
    }
    offset = next
  }
  finish(text.length)
  if (stack.length > 0) {
    const open = stack[stack.length - 1]!
    throw malformed(where, open.line, `BEGIN:${open.name} is never closed`)
  }
  if (calendars === 0) throw malformed(where, 1, 'no BEGIN:VCALENDAR')
  return { spans, endOffset, eol }
}
