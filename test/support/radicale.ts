import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { join } from 'node:path'
import { freePort } from '../../src/main/eval/mail/dovecot'
import { tempDirs } from './tempDir'

export interface Radicale {
  port: number
  url: string
  /** Basic auth header of a user. */
  auth(user: string): string
  /** MKCALENDAR `/<user>/<slug>/` with a display name. */
  makeCalendar(user: string, slug: string, displayName: string): Promise<string>
  /** A plain CalDAV REPORT (calendar-query with a time range), as a second client: the calendar-data of every object. */
  report(user: string, slug: string, range?: { start: string; end: string }): Promise<string[]>
  stop(): Promise<void>
}

const waitForPort = async (port: number, child: ChildProcess, log: () => string) => {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`Radicale exited: ${log()}`)
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
    })
    if (open) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`Radicale did not listen on ${port}: ${log()}`)
}

/** Debian's Radicale on 127.0.0.1, a free port, a temp folder and plain-text htpasswd users. */
export async function startRadicale(users: Record<string, string>): Promise<Radicale> {
  const dirs = tempDirs('bureau-radicale-')
  const base = await dirs.make()
  const port = await freePort()
  await mkdir(join(base, 'collections'))
  await writeFile(
    join(base, 'users'),
    Object.entries(users)
      .map(([user, password]) => `${user}:${password}`)
      .join('\n'),
  )
  await writeFile(
    join(base, 'config'),
    [
      '[server]',
      `hosts = 127.0.0.1:${port}`,
      '[auth]',
      'type = htpasswd',
      `htpasswd_filename = ${join(base, 'users')}`,
      'htpasswd_encryption = plain',
      'delay = 0',
      '[rights]',
      'type = owner_only',
      '[storage]',
      `filesystem_folder = ${join(base, 'collections')}`,
      '[logging]',
      'level = warning',
      '',
    ].join('\n'),
  )
  const child = spawn('/usr/bin/python3', ['-m', 'radicale', '--config', join(base, 'config')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (d) => {
    output += String(d)
  })
  child.stderr?.on('data', (d) => {
    output += String(d)
  })
  await waitForPort(port, child, () => output)
  const url = `http://127.0.0.1:${port}/`
  const auth = (user: string) => `Basic ${Buffer.from(`${user}:${users[user] ?? ''}`).toString('base64')}`
  return {
    port,
    url,
    auth,
    async makeCalendar(user, slug, displayName) {
      const target = `${url}${user}/${slug}/`
      const response = await fetch(target, {
        method: 'MKCALENDAR',
        headers: { Authorization: auth(user), 'Content-Type': 'application/xml' },
        body: `<?xml version="1.0"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop><D:displayname>${displayName}</D:displayname><C:supported-calendar-component-set><C:comp name="VEVENT"/></C:supported-calendar-component-set></D:prop></D:set></C:mkcalendar>`,
      })
      if (response.status !== 201)
        throw new Error(`MKCALENDAR ${target}: ${response.status} ${await response.text()}`)
      return target
    },
    async report(user, slug, range) {
      const filter = range
        ? `<C:comp-filter name="VEVENT"><C:time-range start="${range.start}" end="${range.end}"/></C:comp-filter>`
        : '<C:comp-filter name="VEVENT"/>'
      const response = await fetch(`${url}${user}/${slug}/`, {
        method: 'REPORT',
        headers: { Authorization: auth(user), Depth: '1', 'Content-Type': 'application/xml' },
        body: `<?xml version="1.0"?><C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/><C:calendar-data/></D:prop><C:filter><C:comp-filter name="VCALENDAR">${filter}</C:comp-filter></C:filter></C:calendar-query>`,
      })
      if (response.status !== 207) throw new Error(`REPORT: ${response.status}`)
      const xml = await response.text()
      return [...xml.matchAll(/<C:calendar-data[^>]*>([\s\S]*?)<\/C:calendar-data>/gi)].map((m) =>
        (m[1] ?? '')
          .replace(/&#13;/g, '\r')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&amp;/g, '&'),
      )
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await exited
      }
      await dirs.cleanup()
    },
  }
}
