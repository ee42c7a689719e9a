import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testCalendarAccount } from '../../../src/main/calendar'
import { CalendarSettings } from '../../../src/shared/settings'
import { fixturePath } from '../../support/fixtures'

// A CalDAV server whose certificate is self-signed: the account's test names the account and says what to
// do, and no request is answered as if the server were trusted.
let server: Server
let requests = 0
let url = ''

beforeAll(async () => {
  server = createServer(
    {
      key: readFileSync(fixturePath('email', 'tls', 'self-signed.key')),
      cert: readFileSync(fixturePath('email', 'tls', 'self-signed.crt')),
    },
    (_req, res) => {
      requests++
      res.writeHead(207, { 'content-type': 'application/xml' })
      res.end('<?xml version="1.0"?><d:multistatus xmlns:d="DAV:"/>')
    },
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/dav/`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

describe('a CalDAV server with an untrusted certificate', () => {
  it('Test connection fails naming the account and the certificate, and nothing is sent past the handshake', async () => {
    const env = {
      settings: () => CalendarSettings.parse({}),
      password: async () => 'secret',
      requestTimeoutMs: 10_000,
    }
    const result = await testCalendarAccount(env, 'work', { url, user: 'alice' }, 'secret')
    expect(result.ok).toBe(false)
    expect(result.calendars).toEqual([])
    expect(result.message).toContain('calendar account "work"')
    expect(result.message).toMatch(
      /certificate that cannot be trusted \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)/,
    )
    expect(result.message).toContain('Settings → Calendar')
    expect(requests).toBe(0)
  })
})
