import { Cron } from 'croner'
import { AppError } from '../../shared/errors'

const FIELD_NAMES = ['minute', 'hour', 'day of month', 'month', 'day of week']
const SIX_FIELD_NAMES = ['second', ...FIELD_NAMES]
const RANGES: Record<string, string> = {
  second: '0–59',
  minute: '0–59',
  hour: '0–23',
  'day of month': '1–31',
  month: '1–12 or JAN–DEC',
  'day of week': '0–7 or SUN–SAT',
}

const DAYS: Record<string, number> = {
  sunday: 0,
  sun: 0,
  monday: 1,
  mon: 1,
  tuesday: 2,
  tue: 2,
  tues: 2,
  wednesday: 3,
  wed: 3,
  thursday: 4,
  thu: 4,
  thurs: 4,
  friday: 5,
  fri: 5,
  saturday: 6,
  sat: 6,
}

export interface ParsedSchedule {
  /** The cron expression stored and run. */
  cron: string
  /** The plain form as typed, when it was one. */
  text?: string
}

function badSchedule(message: string): AppError {
  return new AppError('VALIDATION_FAILED', message)
}

/** "8", "8:00", "08:30", "8am", "4:15 pm", "16.00" → [hour, minute]. */
function parseTime(raw: string): [number, number] {
  const match = /^(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm)?$/i.exec(raw.trim())
  if (!match) throw badSchedule(`"${raw}" is not a time of day; write it like 8:00, 16:30 or 4pm.`)
  let hour = Number(match[1])
  const minute = match[2] ? Number(match[2]) : 0
  const half = match[3]?.toLowerCase()
  if (half) {
    if (hour < 1 || hour > 12) throw badSchedule(`"${raw}": with am/pm the hour is 1 to 12.`)
    hour = (hour % 12) + (half === 'pm' ? 12 : 0)
  }
  if (hour > 23 || minute > 59) throw badSchedule(`"${raw}" is not a time of day (hours 0–23, minutes 0–59).`)
  return [hour, minute]
}

function isDayList(text: string): boolean {
  return text
    .split(/\s*(?:,|\band\b)\s*/)
    .filter(Boolean)
    .every((w) => DAYS[w] !== undefined || DAYS[w.replace(/s$/, '')] !== undefined)
}

function parseDays(raw: string): string {
  const words = raw
    .toLowerCase()
    .split(/\s*(?:,|\band\b)\s*/)
    .map((w) => w.trim())
    .filter(Boolean)
  const numbers = words.map((word) => {
    const day = DAYS[word] ?? DAYS[word.replace(/s$/, '')]
    if (day === undefined) throw badSchedule(`"${word}" is not a day of the week.`)
    return day
  })
  return [...new Set(numbers)].sort((a, b) => a - b).join(',')
}

/**
 * The plain forms: "every hour", "every 15 minutes", "every day at 7:30", "every weekday at 8:00",
 * "every monday at 9", "every mon, wed and fri at 16:00", "every month on the 1st at 9:00",
 * "every weekend at 10am" ("every" may be left out). Undefined when the text is not a plain form.
 */
export function plainFormToCron(input: string): string | undefined {
  const text = input
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^every /, '')
  if (text === 'hour' || text === 'hourly') return '0 * * * *'
  if (text === 'minute') return '* * * * *'
  const minutes = /^(\d{1,2}) minutes?$/.exec(text)
  if (minutes) {
    const n = Number(minutes[1])
    if (n < 1 || n > 59 || 60 % n !== 0)
      throw badSchedule(`Every ${n} minutes: use a number that divides 60 (1, 2, 5, 10, 15, 20, 30).`)
    return n === 1 ? '* * * * *' : `*/${n} * * * *`
  }
  const hours = /^(\d{1,2}) hours?$/.exec(text)
  if (hours) {
    const n = Number(hours[1])
    if (n < 1 || n > 23 || 24 % n !== 0)
      throw badSchedule(`Every ${n} hours: use a number that divides 24 (1, 2, 3, 4, 6, 8, 12).`)
    return n === 1 ? '0 * * * *' : `0 */${n} * * *`
  }
  const monthly = /^month on (?:the )?(\d{1,2})(?:st|nd|rd|th)?(?: at (.+))?$/.exec(text)
  if (monthly) {
    const day = Number(monthly[1])
    if (day < 1 || day > 31) throw badSchedule(`Day ${day} of the month does not exist (1–31).`)
    const [h, m] = parseTime(monthly[2] ?? '0:00')
    return `${m} ${h} ${day} * *`
  }
  const daily = /^(.+?) at (.+)$/.exec(text)
  const when = daily ? daily[1]! : text
  const at = daily ? daily[2]! : undefined
  let dow: string | undefined
  if (when === 'day' || when === 'daily') dow = '*'
  else if (when === 'weekday' || when === 'workday' || when === 'weekdays') dow = '1-5'
  else if (when === 'weekend' || when === 'weekends') dow = '0,6'
  else if (/^[a-z ,]+$/.test(when) && isDayList(when)) dow = parseDays(when)
  if (dow === undefined) return undefined
  const [h, m] = parseTime(at ?? '0:00')
  return `${m} ${h} * * ${dow}`
}

/** Throws a clear error naming the field and column of an invalid cron expression. */
export function checkCron(expression: string, timeZone?: string): void {
  const fields = expression.trim().split(/\s+/)
  if (fields.length !== 5 && fields.length !== 6) {
    throw badSchedule(
      `"${expression}" is not a cron expression: it needs 5 fields (minute hour day-of-month month day-of-week), it has ${fields.length}. ` +
        'Or write a plain form like "every weekday at 8:00".',
    )
  }
  const names = fields.length === 6 ? SIX_FIELD_NAMES : FIELD_NAMES
  const columns: number[] = []
  let at = expression.indexOf(expression.trim())
  for (const field of fields) {
    at = expression.indexOf(field, at)
    columns.push(at + 1)
    at += field.length
  }
  for (let i = 0; i < fields.length; i++) {
    const probe = fields.map((field, j) => (j === i ? field : '*')).join(' ')
    try {
      new Cron(probe, { paused: true })
    } catch (error) {
      const name = names[i] ?? 'field'
      const detail = /invalid value/i.test(cronReason(error)) ? `allowed: ${RANGES[name]}` : cronReason(error)
      throw badSchedule(
        `Invalid cron expression "${expression}": the ${name} field "${fields[i]}" at column ${columns[i]} is not valid (${detail}).`,
      )
    }
  }
  try {
    new Cron(expression, { paused: true, ...(timeZone ? { timezone: timeZone } : {}) })
  } catch (error) {
    throw badSchedule(`Invalid cron expression "${expression}": ${cronReason(error)}.`)
  }
}

function cronReason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/^CronPattern: /, '')
}

export function checkTimeZone(zone: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return zone
  } catch {
    throw badSchedule(`"${zone}" is not a time zone; use an IANA name like Europe/Berlin or UTC.`)
  }
}

/** A plain form or a cron expression, checked; the stored cron and the text the user typed. */
export function parseSchedule(input: string, timeZone?: string): ParsedSchedule {
  const trimmed = input.trim()
  if (!trimmed) throw badSchedule('A schedule is empty; write "every weekday at 8:00" or a cron expression.')
  if (/^[a-z]/i.test(trimmed)) {
    const plain = plainFormToCron(trimmed)
    if (plain) return { cron: plain, text: trimmed }
    throw badSchedule(
      `"${trimmed}" is not a schedule Bureau knows. Write e.g. "every weekday at 8:00", "every hour", ` +
        '"every friday at 16:00", "every month on the 1st at 9:00", or a cron expression like "0 8 * * 1-5".',
    )
  }
  checkCron(trimmed, timeZone)
  return { cron: trimmed }
}

/** The next `count` times after `after` (exclusive), in the zone; DST gaps and repeats as croner reads them. */
export function nextRuns(cron: string, timeZone: string, after: Date, count: number): Date[] {
  const job = new Cron(cron, { paused: true, timezone: timeZone })
  return job.nextRuns(count, after)
}

/** The latest scheduled time in (after, until], or undefined when none fell in it. */
export function lastSlotBetween(cron: string, timeZone: string, after: Date, until: Date): Date | undefined {
  const job = new Cron(cron, { paused: true, timezone: timeZone })
  const last = job.previousRuns(1, new Date(until.getTime() + 1))[0]
  return last && last.getTime() > after.getTime() ? last : undefined
}
