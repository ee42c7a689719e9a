import ICAL from 'ical.js'
import { AppError } from '../../shared/errors'
import type { Workspace } from '../workspace'
import { resolveCalendarAccount } from './accounts'
import { zonesUsed } from './build'
import { type CalDavConnection, connect } from './caldav/client'
import { type EventView, eventView } from './events'
import {
  definedZones,
  emptyCalendar,
  eventsOf,
  insertComponents,
  type ParsedCalendar,
  parseCalendar,
  replaceSpans,
} from './ics/document'
import type { CalendarEnvironment } from './types'
import { vtimezoneText } from './zones'

/** Where a write went, read back from there. */
export interface StoredAt {
  /** The workspace file, or the object's URL on the server. */
  path?: string
  url?: string
  backup?: string
  version?: string
  etag?: string
}

export interface StoredEvent {
  event: EventView
  stored: StoredAt
}

/** A calendar an argument names: a workspace .ics file or a CalDAV calendar. Writes read back what they stored. */
export interface CalendarStore {
  readonly name: string
  readonly kind: 'file' | 'caldav'
  /** The calendar's texts (one for a file, one per object on a server), parsed. */
  read(range?: { fromMs: number; toMs: number }): Promise<ParsedCalendar[]>
  create(event: ICAL.Component): Promise<StoredEvent>
  update(uid: string, change: (master: ICAL.Component) => void): Promise<StoredEvent>
  remove(uid: string): Promise<{ removed: number; stored: StoredAt }>
}

function notFound(uid: string, where: string): AppError {
  return new AppError('NOT_FOUND', `${where} has no event with uid "${uid}": list_events shows the uids.`)
}

function withZones(parsed: ParsedCalendar | undefined, component: ICAL.Component): string[] {
  const have = parsed ? definedZones(parsed) : new Set<string>()
  return zonesUsed(component)
    .filter((tzid) => !have.has(tzid))
    .map(vtimezoneText)
    .filter((text): text is string => Boolean(text))
}

const writeQueues = new Map<string, Promise<unknown>>()
/** One write at a time per file, so two calls in a run cannot lose each other's event. */
function queued<T>(key: string, run: () => Promise<T>): Promise<T> {
  const previous = writeQueues.get(key) ?? Promise.resolve()
  const next = previous.catch(() => undefined).then(run)
  writeQueues.set(key, next)
  const done = () => {
    if (writeQueues.get(key) === next) writeQueues.delete(key)
  }
  next.then(done, done)
  return next
}

const cache = new Map<string, { stamp: string; parsed: ParsedCalendar }>()
const CACHE_SIZE = 16

/** An .ics file of the workspace; created on the first write. */
export function fileStore(workspace: Workspace, path: string, userZone: string): CalendarStore {
  if (!path.toLowerCase().endsWith('.ics'))
    throw new AppError(
      'VALIDATION_FAILED',
      `"${path}" is not a calendar: name an .ics file such as /calendar/team.ics, or a CalDAV calendar as account:calendar.`,
    )
  const readFresh = async (useCache: boolean): Promise<ParsedCalendar | undefined> => {
    if (!(await workspace.exists(path))) return undefined
    const info = await workspace.stat(path)
    const key = `${workspace.root}\0${path}`
    const stamp = `${info.modified}\0${info.size}`
    const hit = cache.get(key)
    if (useCache && hit && hit.stamp === stamp) return hit.parsed
    const parsed = parseCalendar(await workspace.readText(path), path)
    cache.delete(key)
    cache.set(key, { stamp, parsed })
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string)
    return parsed
  }
  const write = async (text: string, message: string) => {
    // What is written must read back as a calendar, or the file is left as it was.
    parseCalendar(text, path)
    return workspace.writeFile(path, text, { message })
  }
  const receipt = async (uid: string, written: Awaited<ReturnType<typeof write>>): Promise<StoredEvent> => {
    const back = await readFresh(false)
    const master = back ? eventsOf(back, uid)[0] : undefined
    if (!master) throw new AppError('INTERNAL', `The event ${uid} is not in ${path} after the write.`)
    return {
      event: eventView(master, path, userZone),
      stored: {
        path: written.path,
        ...(written.backup ? { backup: written.backup } : {}),
        ...(written.version ? { version: written.version } : {}),
      },
    }
  }
  return {
    name: path,
    kind: 'file',
    async read() {
      const parsed = await readFresh(true)
      return parsed ? [parsed] : []
    },
    create: (component) =>
      queued(path, async () => {
        const parsed = (await readFresh(false)) ?? parseCalendar(emptyCalendar(), path)
        const uid = String(component.getFirstPropertyValue('uid'))
        const text = insertComponents(parsed, [...withZones(parsed, component), component.toString()])
        return receipt(
          uid,
          await write(
            text,
            `calendar: add "${component.getFirstPropertyValue('summary') ?? uid}" to ${path}`,
          ),
        )
      }),
    update: (uid, change) =>
      queued(path, async () => {
        const parsed = await readFresh(false)
        const master = parsed ? eventsOf(parsed, uid)[0] : undefined
        if (!parsed || !master) throw notFound(uid, path)
        const component = new ICAL.Component(master.component.toJSON())
        change(component)
        const zones = withZones(parsed, component)
        const replaced = {
          ...parsed,
          text: replaceSpans(parsed, [{ span: master.span, text: component.toString() }]),
        }
        const text =
          zones.length > 0 ? insertComponents(parseCalendar(replaced.text, path), zones) : replaced.text
        return receipt(uid, await write(text, `calendar: change ${uid} in ${path}`))
      }),
    remove: (uid) =>
      queued(path, async () => {
        const parsed = await readFresh(false)
        const events = parsed ? eventsOf(parsed, uid) : []
        if (!parsed || events.length === 0) throw notFound(uid, path)
        const text = replaceSpans(
          parsed,
          events.map((e) => ({ span: e.span, text: undefined })),
        )
        const written = await write(text, `calendar: remove ${uid} from ${path}`)
        const back = await readFresh(false)
        if (back && eventsOf(back, uid).length > 0)
          throw new AppError('INTERNAL', `The event ${uid} is still in ${path}.`)
        return {
          removed: events.length,
          stored: {
            path: written.path,
            ...(written.backup ? { backup: written.backup } : {}),
            ...(written.version ? { version: written.version } : {}),
          },
        }
      }),
  }
}

const isoRange = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

/** A calendar of a CalDAV account, `account:calendar name`; a new connection per call. */
export function calDavStore(env: CalendarEnvironment, name: string, userZone: string): CalendarStore {
  const colon = name.indexOf(':')
  const accountName = name.slice(0, colon)
  const calendarName = name.slice(colon + 1)
  const open = async () => {
    const connection = await connect(env, await resolveCalendarAccount(env, accountName))
    const calendar = await connection.calendar(calendarName)
    return { connection, calendar }
  }
  const parseObject = (o: { url: string; data: string }) =>
    parseCalendar(o.data, `${name} (${o.url.split('/').pop()})`)
  const receiptFrom = async (
    connection: CalDavConnection,
    url: string,
    uid: string,
  ): Promise<StoredEvent> => {
    const back = await connection.get(url)
    const master = back ? eventsOf(parseCalendar(back.data, name), uid)[0] : undefined
    if (!back || !master)
      throw new AppError('INTERNAL', `The event ${uid} is not on the server after the write.`)
    return {
      event: eventView(master, name, userZone),
      stored: { url, ...(back.etag ? { etag: back.etag } : {}) },
    }
  }
  const objectOf = async (
    connection: CalDavConnection,
    calendar: Awaited<ReturnType<typeof open>>['calendar'],
    uid: string,
  ) => {
    const found = (await connection.objectsWithUid(calendar.raw, uid))[0]
    if (!found) throw notFound(uid, name)
    return found
  }
  return {
    name,
    kind: 'caldav',
    async read(range) {
      const { connection, calendar } = await open()
      const objects = await connection.objects(
        calendar.raw,
        range ? { start: isoRange(range.fromMs), end: isoRange(range.toMs) } : undefined,
      )
      return objects.map(parseObject)
    },
    async create(component) {
      const { connection, calendar } = await open()
      const uid = String(component.getFirstPropertyValue('uid'))
      const parsed = parseCalendar(emptyCalendar(), name)
      const text = insertComponents(parsed, [...withZones(undefined, component), component.toString()])
      const url = new URL(
        `${encodeURIComponent(uid.replace(/[^A-Za-z0-9@._-]/g, '_'))}.ics`,
        calendar.url.endsWith('/') ? calendar.url : `${calendar.url}/`,
      ).toString()
      await connection.put(url, text, 'new')
      return receiptFrom(connection, url, uid)
    },
    async update(uid, change) {
      const { connection, calendar } = await open()
      const object = await objectOf(connection, calendar, uid)
      const parsed = parseCalendar(object.data, name)
      const master = eventsOf(parsed, uid)[0]
      if (!master) throw notFound(uid, name)
      const component = new ICAL.Component(master.component.toJSON())
      change(component)
      const zones = withZones(parsed, component)
      const replaced = replaceSpans(parsed, [{ span: master.span, text: component.toString() }])
      const text = zones.length > 0 ? insertComponents(parseCalendar(replaced, name), zones) : replaced
      await connection.put(object.url, text, object.etag)
      return receiptFrom(connection, object.url, uid)
    },
    async remove(uid) {
      const { connection, calendar } = await open()
      const object = await objectOf(connection, calendar, uid)
      const parsed = parseCalendar(object.data, name)
      const others = parsed.events.filter((e) => e.uid !== uid)
      const removed = parsed.events.length - others.length
      if (others.length === 0) await connection.remove(object.url, object.etag)
      else
        await connection.put(
          object.url,
          replaceSpans(
            parsed,
            eventsOf(parsed, uid).map((e) => ({ span: e.span, text: undefined })),
          ),
          object.etag,
        )
      const back = await connection.get(object.url)
      if (back && eventsOf(parseCalendar(back.data, name), uid).length > 0)
        throw new AppError('INTERNAL', `The event ${uid} is still on the server.`)
      return { removed, stored: { url: object.url } }
    },
  }
}
