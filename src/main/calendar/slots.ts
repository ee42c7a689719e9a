/** A busy or free stretch of time in UTC milliseconds, [startMs, endMs). */
export interface Interval {
  startMs: number
  endMs: number
}

/** True when two intervals share some time (touching ends do not overlap). */
export function overlaps(a: Interval, b: Interval): boolean {
  return a.startMs < b.endMs && b.startMs < a.endMs
}

/** Every pair of intervals that overlap (indexes into `items`, sorted by start). */
export function findOverlaps<T extends Interval>(items: readonly T[]): Array<[T, T]> {
  const sorted = [...items].sort((a, b) => a.startMs - b.startMs)
  const pairs: Array<[T, T]> = []
  const open: T[] = []
  for (const item of sorted) {
    for (let i = open.length - 1; i >= 0; i--) if (open[i]!.endMs <= item.startMs) open.splice(i, 1)
    for (const other of open) if (overlaps(other, item)) pairs.push([other, item])
    open.push(item)
  }
  return pairs
}

/** True when no two of the intervals overlap (a calendar without double bookings). */
export function noOverlaps(items: readonly Interval[]): boolean {
  return findOverlaps(items).length === 0
}

/** The intervals merged into disjoint busy stretches, sorted. */
export function mergeBusy(items: readonly Interval[]): Interval[] {
  const sorted = [...items].filter((i) => i.endMs > i.startMs).sort((a, b) => a.startMs - b.startMs)
  const merged: Interval[] = []
  for (const item of sorted) {
    const last = merged[merged.length - 1]
    if (last && item.startMs <= last.endMs) last.endMs = Math.max(last.endMs, item.endMs)
    else merged.push({ ...item })
  }
  return merged
}

const parts = (ms: number, zone: string) => {
  const formatted = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    weekday: 'short',
  }).formatToParts(new Date(ms))
  const get = (type: string) => formatted.find((p) => p.type === type)?.value ?? ''
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    hour: Number(get('hour')),
    minute: Number(get('minute')),
    second: Number(get('second')),
    weekday: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday')),
  }
}

/** The wall time of an instant in a zone, `2026-07-14T10:00:00`. */
export function wallTime(ms: number, zone: string): string {
  const p = parts(ms, zone)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}:${two(p.second)}`
}

/** The instant of a wall time in a zone (a time in a DST gap moves forward by the gap). */
export function zonedInstant(
  wall: { year: number; month: number; day: number; hour?: number; minute?: number; second?: number },
  zone: string,
): number {
  const asUtc = Date.UTC(
    wall.year,
    wall.month - 1,
    wall.day,
    wall.hour ?? 0,
    wall.minute ?? 0,
    wall.second ?? 0,
  )
  const offsetAt = (ms: number) => {
    const p = parts(ms, zone)
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - ms
  }
  let guess = asUtc - offsetAt(asUtc)
  guess = asUtc - offsetAt(guess)
  return guess
}

export interface WorkingHours {
  /** `09:00` */
  start: string
  /** `17:00` */
  end: string
  /** Days of the week, 0 = Sunday … 6 = Saturday. */
  days: number[]
}

export const DEFAULT_WORKING_HOURS: WorkingHours = { start: '09:00', end: '17:00', days: [1, 2, 3, 4, 5] }

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number)
  return (h ?? 0) * 60 + (m ?? 0)
}

/** The working-hour windows of each day between two instants, in the zone. */
export function workingWindows(
  fromMs: number,
  toMs: number,
  zone: string,
  hours: WorkingHours | null,
): Interval[] {
  if (!hours) return fromMs < toMs ? [{ startMs: fromMs, endMs: toMs }] : []
  const windows: Interval[] = []
  const first = parts(fromMs, zone)
  const cursor = new Date(Date.UTC(first.year, first.month - 1, first.day))
  for (let i = 0; i < 3700; i++) {
    const day = { year: cursor.getUTCFullYear(), month: cursor.getUTCMonth() + 1, day: cursor.getUTCDate() }
    const dayStart = zonedInstant(day, zone)
    if (dayStart >= toMs) break
    if (hours.days.includes(cursor.getUTCDay())) {
      const s = minutesOf(hours.start)
      const e = minutesOf(hours.end)
      const startMs = zonedInstant({ ...day, hour: Math.floor(s / 60), minute: s % 60 }, zone)
      const endMs = zonedInstant({ ...day, hour: Math.floor(e / 60), minute: e % 60 }, zone)
      const clipped = { startMs: Math.max(startMs, fromMs), endMs: Math.min(endMs, toMs) }
      if (clipped.endMs > clipped.startMs) windows.push(clipped)
    }
    cursor.setUTCDate(cursor.getUTCDate() + 1)
  }
  return windows
}

/**
 * Free stretches of at least `minutes` inside the windows, outside every busy interval, with their
 * starts rounded up to `stepMinutes` past the hour.
 */
export function freeSlots(
  windows: readonly Interval[],
  busy: readonly Interval[],
  minutes: number,
  stepMinutes = 15,
): Interval[] {
  const merged = mergeBusy(busy)
  const need = minutes * 60_000
  const step = stepMinutes * 60_000
  const free: Interval[] = []
  for (const window of windows) {
    let cursor = window.startMs
    const roundUp = (ms: number) => Math.ceil(ms / step) * step
    for (const b of merged) {
      if (b.endMs <= cursor || b.startMs >= window.endMs) continue
      const start = roundUp(cursor)
      if (b.startMs - start >= need) free.push({ startMs: start, endMs: b.startMs })
      cursor = Math.max(cursor, b.endMs)
    }
    const start = roundUp(cursor)
    if (window.endMs - start >= need) free.push({ startMs: start, endMs: window.endMs })
  }
  return free
}
