import { createDAVClient, type DAVCalendar } from 'tsdav'
import { AppError } from '../../../shared/errors'
import type { CalendarEnvironment, ResolvedCalendarAccount } from '../types'

const CERT_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
])

function causeCode(error: unknown): string | undefined {
  let current: unknown = error
  for (let i = 0; i < 4 && current && typeof current === 'object'; i++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string') return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

/** A failed request in words that name the account and what to do. */
export function connectionError(account: string, url: string, error: unknown): AppError {
  if (error instanceof AppError) return error
  const code = causeCode(error)
  const where = `calendar account "${account}" (${new URL(url).host})`
  if (code && CERT_CODES.has(code))
    return new AppError(
      'UNAVAILABLE',
      `The server of ${where} sent a certificate that cannot be trusted (${code}): check the address in Settings → Calendar, or ask its administrator for a valid certificate.`,
    )
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return new AppError('TIMEOUT', `The server of ${where} did not answer in time; try again later.`)
  return new AppError(
    'UNAVAILABLE',
    `Could not reach the server of ${where}${code ? ` (${code})` : ''}: check the address and your connection, then try again.`,
  )
}

/**
 * A fetch for one account: every request has a time limit, a refused login becomes a clear error
 * whatever tsdav would make of it, and nothing is kept between calls (a dropped connection is simply
 * a new one next time).
 */
function accountFetch(account: ResolvedCalendarAccount, timeoutMs: number): typeof fetch {
  return async (input, init) => {
    const signal = init?.signal
      ? AbortSignal.any([init.signal, AbortSignal.timeout(timeoutMs)])
      : AbortSignal.timeout(timeoutMs)
    let response: Response
    try {
      response = await fetch(input, { ...init, signal })
    } catch (error) {
      throw connectionError(account.name, account.url, error)
    }
    if (response.status === 401)
      throw new AppError(
        'UNAUTHORIZED',
        `The server of calendar account "${account.name}" refused user "${account.user}" and its password: correct them in Settings → Calendar or with \`bureau calendar accounts add ${account.name}\`.`,
      )
    return response
  }
}

export interface CalendarInfo {
  name: string
  url: string
  description?: string
}

const displayName = (calendar: DAVCalendar): string => {
  const name = typeof calendar.displayName === 'string' ? calendar.displayName : ''
  return name || decodeURIComponent(calendar.url.replace(/\/$/, '').split('/').pop() ?? calendar.url)
}

/** A logged-in CalDAV connection of one account (discovery done). */
export async function connect(env: CalendarEnvironment, account: ResolvedCalendarAccount) {
  const fetcher = accountFetch(account, env.requestTimeoutMs ?? 30_000)
  let client: Awaited<ReturnType<typeof createDAVClient>>
  try {
    client = await createDAVClient({
      serverUrl: account.url,
      credentials: { username: account.user, password: account.password },
      authMethod: 'Basic',
      defaultAccountType: 'caldav',
      fetch: fetcher,
    })
  } catch (error) {
    throw connectionError(account.name, account.url, error)
  }
  const calendars = async (): Promise<Array<CalendarInfo & { raw: DAVCalendar }>> => {
    const found = await client.fetchCalendars()
    return found
      .filter((c) => !c.components || c.components.includes('VEVENT'))
      .map((raw) => ({
        name: displayName(raw),
        url: raw.url,
        ...(typeof raw.description === 'string' && raw.description ? { description: raw.description } : {}),
        raw,
      }))
  }
  const authorization = `Basic ${Buffer.from(`${account.user}:${account.password}`).toString('base64')}`
  const request = (url: string, init: RequestInit & { headers?: Record<string, string> }) =>
    fetcher(new URL(url, account.url).toString(), {
      ...init,
      headers: { ...init.headers, Authorization: authorization },
    })
  return {
    account,
    client,
    calendars,
    async calendar(name: string) {
      const all = await calendars()
      const wanted = name.trim().toLowerCase()
      const match =
        all.find((c) => c.name.toLowerCase() === wanted) ??
        all.find(
          (c) => decodeURIComponent(c.url.replace(/\/$/, '').split('/').pop() ?? '').toLowerCase() === wanted,
        )
      if (!match)
        throw new AppError(
          'NOT_FOUND',
          `Calendar account "${account.name}" has no calendar "${name}". Its calendars: ${all.map((c) => c.name).join(', ') || 'none'}.`,
        )
      return match
    },
    /** Objects overlapping a UTC range (or all), as the server stores them. */
    async objects(calendar: DAVCalendar, range?: { start: string; end: string }) {
      const objects = await client.fetchCalendarObjects({
        calendar,
        ...(range ? { timeRange: range } : {}),
        fetch: fetcher,
      })
      return objects
        .filter((o) => typeof o.data === 'string' && o.data.includes('BEGIN:VCALENDAR'))
        .map((o) => ({ url: new URL(o.url, account.url).toString(), etag: o.etag, data: o.data as string }))
    },
    /** The objects that hold events of a UID (a calendar-query on UID). */
    async objectsWithUid(calendar: DAVCalendar, uid: string) {
      const responses = await client.calendarQuery({
        url: calendar.url,
        props: { 'd:getetag': {}, 'c:calendar-data': {} },
        filters: {
          'c:comp-filter': {
            _attributes: { name: 'VCALENDAR' },
            'c:comp-filter': {
              _attributes: { name: 'VEVENT' },
              'c:prop-filter': {
                _attributes: { name: 'UID' },
                'c:text-match': { _attributes: { collation: 'i;octet' }, _text: uid },
              },
            },
          },
        },
        depth: '1',
        fetch: fetcher,
      })
      return responses
        .filter((r) => r.ok && r.href)
        .map((r) => {
          const props = r.props ?? {}
          const data = props.calendarData
          const text = typeof data === 'string' ? data : typeof data?._cdata === 'string' ? data._cdata : ''
          return {
            url: new URL(r.href ?? '', account.url).toString(),
            etag: props.getetag as string | undefined,
            data: text,
          }
        })
        .filter((o) => o.data.includes(uid))
    },
    /** GET of one object: its text and ETag, or undefined when it is gone. */
    async get(url: string) {
      const response = await request(url, { method: 'GET' })
      if (response.status === 404) return undefined
      if (!response.ok) throw new AppError('UNAVAILABLE', `Reading ${url} failed: HTTP ${response.status}.`)
      return { data: await response.text(), etag: response.headers.get('etag') ?? undefined }
    },
    /** PUT of one object; `etag` guards an update, `'new'` a create. */
    async put(url: string, data: string, etag: string | 'new' | undefined) {
      const headers: Record<string, string> = { 'Content-Type': 'text/calendar; charset=utf-8' }
      if (etag === 'new') headers['If-None-Match'] = '*'
      else if (etag) headers['If-Match'] = etag
      const response = await request(url, { method: 'PUT', headers, body: data })
      await response.arrayBuffer().catch(() => undefined)
      if (response.status === 412)
        throw new AppError('CONFLICT', 'The event changed on the server meanwhile: read it again and retry.')
      if (!response.ok)
        throw new AppError(
          'UNAVAILABLE',
          `The server of calendar account "${account.name}" refused the write: HTTP ${response.status}.`,
        )
    },
    async remove(url: string, etag: string | undefined) {
      const response = await request(url, { method: 'DELETE', headers: etag ? { 'If-Match': etag } : {} })
      await response.arrayBuffer().catch(() => undefined)
      if (!response.ok && response.status !== 404)
        throw new AppError(
          'UNAVAILABLE',
          `The server of calendar account "${account.name}" refused the deletion: HTTP ${response.status}.`,
        )
    },
  }
}

export type CalDavConnection = Awaited<ReturnType<typeof connect>>
