/**
 * A large calendar for the paging test and the benchmark: `count` events over 2026 (08:00–18:00 UTC on
 * weekdays, 30 to 90 minutes), one in fifty a weekly series of ten, in the zones a real export mixes.
 */
export function bigCalendar(count: number, seed = 1): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Bureau bench//EN']
  let state = seed
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
  const pad = (n: number) => String(n).padStart(2, '0')
  const stamp = (d: Date) =>
    `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}00Z`
  for (let i = 0; i < count; i++) {
    const day = Math.floor(next() * 360)
    const start = new Date(
      Date.UTC(2026, 0, 1 + day, 8 + Math.floor(next() * 10), Math.floor(next() * 4) * 15),
    )
    const end = new Date(start.getTime() + (30 + Math.floor(next() * 3) * 30) * 60_000)
    lines.push(
      'BEGIN:VEVENT',
      `UID:bench-${seed}-${i}@example.com`,
      'DTSTAMP:20260101T000000Z',
      `DTSTART:${stamp(start)}`,
      `DTEND:${stamp(end)}`,
      `SUMMARY:Event ${i}`,
      ...(i % 50 === 0 ? ['RRULE:FREQ=WEEKLY;COUNT=10'] : []),
      ...(i % 7 === 0 ? [`LOCATION:Room ${i % 13}`, 'X-VENDOR-NOTE:kept'] : []),
      'END:VEVENT',
    )
  }
  lines.push('END:VCALENDAR', '')
  return lines.join('\r\n')
}
