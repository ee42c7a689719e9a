import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadEmailToolset } from '../src/main/email'
import { createToolSession, invoke } from '../src/main/tools'
import { createWorkspace } from '../src/main/workspace'
import { EmailSettings } from '../src/shared/settings'
import { DOVECOT, DOVECOT_MISSING, startDovecot } from '../test/support/mailServers'
import { median } from './support'
import type { BenchRow } from './types'

// The email toolset against a local Dovecot with 1,000 messages (plain, HTML and with a small
// attachment, 2-20 KB each): list every page of 20 and read every message, on one IMAP connection.

const MESSAGES = 1_000
const PAGE = 20

function message(i: number): string {
  const words = 'invoice quarterly report supplier delivery meeting budget figures schedule review'.split(' ')
  const text = Array.from({ length: 40 + (i % 400) }, (_, k) => words[(i + k) % words.length]).join(' ')
  const head = `From: Sender ${i} <s${i}@example.com>\r\nTo: alice@bureau.test\r\nSubject: Message ${i}\r\nMessage-ID: <m${i}@example.com>\r\nMIME-Version: 1.0\r\n`
  if (i % 3 === 0)
    return `${head}Content-Type: text/html; charset=utf-8\r\n\r\n<html><body><h1>Message ${i}</h1><p>${text}</p><table><tr><td>a</td><td>${i}</td></tr></table></body></html>\r\n`
  if (i % 3 === 1) return `${head}Content-Type: text/plain; charset=utf-8\r\n\r\n${text}\r\n`
  return `${head}Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\n${text}\r\n--b\r\nContent-Type: text/csv\r\nContent-Disposition: attachment; filename="data-${i}.csv"\r\n\r\na,b\r\n1,2\r\n--b--\r\n`
}

const p90 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)] ?? 0

export default async function emailBench(): Promise<BenchRow[]> {
  if (!DOVECOT) return [{ name: 'skipped', value: 0, unit: '', note: DOVECOT_MISSING }]
  const password = 'bench-password'
  const dovecot = await startDovecot({ alice: password })
  const dir = await mkdtemp(join(tmpdir(), 'bureau-email-bench-'))
  const workspace = createWorkspace({ root: dir })
  try {
    for (let i = 1; i <= MESSAGES; i++) dovecot.deliver('alice', message(i))
    const settings = EmailSettings.parse({
      accounts: {
        bench: {
          imap: { host: '127.0.0.1', port: dovecot.port, tls: false },
          smtp: { host: '127.0.0.1' },
          user: 'alice',
          from: 'a@b.c',
        },
      },
    })
    const session = createToolSession({
      toolsets: [await loadEmailToolset({ settings: () => settings, password: async () => password })],
      workspace,
    })
    const rssBefore = process.memoryUsage().rss
    let peak = rssBefore
    const sample = () => {
      peak = Math.max(peak, process.memoryUsage().rss)
    }
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await invoke(session, name, args)
      sample()
      if (!result.ok) throw new Error(`${name}: ${result.error}`)
      return result.value as { messages?: { uid: number }[]; pages?: number }
    }
    const t0 = performance.now()
    const first = await call('email_list', { count: PAGE })
    const firstPageMs = performance.now() - t0
    const pageTimes: number[] = []
    const uids: number[] = [...(first.messages ?? []).map((m) => m.uid)]
    for (let page = 2; page <= (first.pages ?? 1); page++) {
      const start = performance.now()
      const result = await call('email_list', { count: PAGE, page })
      pageTimes.push(performance.now() - start)
      uids.push(...(result.messages ?? []).map((m) => m.uid))
    }
    const readTimes: number[] = []
    const readStart = performance.now()
    for (const uid of uids) {
      const start = performance.now()
      await call('email_read', { uid })
      readTimes.push(performance.now() - start)
    }
    const readAllMs = performance.now() - readStart
    await session.dispose()
    return [
      {
        name: 'messages listed and read',
        value: uids.length,
        unit: 'messages',
        target: `= ${MESSAGES}`,
        pass: uids.length === MESSAGES,
      },
      { name: 'first list page (connect + login)', value: firstPageMs, unit: 'ms' },
      { name: `list page of ${PAGE}, median`, value: median(pageTimes), unit: 'ms' },
      { name: `list page of ${PAGE}, p90`, value: p90(pageTimes), unit: 'ms' },
      { name: 'read one message, median', value: median(readTimes), unit: 'ms' },
      { name: 'read one message, p90', value: p90(readTimes), unit: 'ms' },
      { name: `read all ${MESSAGES}`, value: readAllMs / 1000, unit: 's' },
      { name: 'peak RSS growth', value: (peak - rssBefore) / 1024 / 1024, unit: 'MB' },
    ]
  } finally {
    await workspace.close()
    await dovecot.stop()
    await rm(dir, { recursive: true, force: true })
  }
}
