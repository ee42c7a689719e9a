import { writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BureauApp, createApp } from '../../../src/main/app'
import { silentLogger } from '../../../src/main/platform'
import { startHttpHost } from '../../../src/main/server'
import type { HttpHost } from '../../../src/main/server/createHttpHost'
import { rawChunkedPost, rawHttp } from '../../support/rawHttp'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs()
let app: BureauApp
let host: HttpHost
const TOKEN = 'test-token-123'
const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }

beforeAll(async () => {
  app = await createApp({
    host: 'web',
    dataDir: await dirs.make(),
    workspaceDir: await dirs.make(),
    logger: silentLogger,
  })
  host = await startHttpHost({ app, port: 0, token: TOKEN })
})

afterAll(async () => {
  await host.close()
  await app.dispose()
  await dirs.cleanup()
})

describe('headless host', () => {
  it('answers /health without a token', async () => {
    const res = await rawHttp({ port: host.port, path: '/health' })
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toEqual({ status: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+/) })
  })

  it('serves app.info over POST /ipc with an empty body or {}', async () => {
    for (const body of ['', '{}']) {
      const res = await rawHttp({
        port: host.port,
        method: 'POST',
        path: '/ipc/app.info',
        headers: auth,
        body,
      })
      expect(res.status).toBe(200)
      expect(JSON.parse(res.body)).toMatchObject({ name: 'Bureau', host: 'web', workspaceRoot: '/' })
    }
  })

  it('refuses a missing or wrong token with 401', async () => {
    const missing = await rawHttp({ port: host.port, method: 'POST', path: '/ipc/app.info', body: '{}' })
    expect(missing.status).toBe(401)
    expect(JSON.parse(missing.body).code).toBe('UNAUTHORIZED')
    const wrong = await rawHttp({
      port: host.port,
      method: 'POST',
      path: '/ipc/app.info',
      headers: { authorization: 'Bearer nope' },
    })
    expect(wrong.status).toBe(401)
    expect(JSON.parse(wrong.body).message).toBe('Wrong token.')
  })

  it('accepts the token from the printed URL as an HttpOnly cookie', async () => {
    const res = await rawHttp({ port: host.port, path: `/?token=${TOKEN}` })
    expect(res.status).toBe(302)
    const cookie = String(res.headers['set-cookie'])
    expect(cookie).toMatch(/bureau_token=test-token-123/)
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Strict/)
    const withCookie = await rawHttp({
      port: host.port,
      method: 'POST',
      path: '/ipc/app.info',
      headers: { cookie: `bureau_token=${TOKEN}` },
    })
    expect(withCookie.status).toBe(200)
    const badUrl = await rawHttp({ port: host.port, path: '/?token=guess' })
    expect(badUrl.status).toBe(401)
    // A browser (a link cut when copied) gets a page that says what to do, not JSON.
    const cut = await rawHttp({
      port: host.port,
      path: `/?token=${TOKEN.slice(0, 10)}`,
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    })
    expect(cut.status).toBe(401)
    expect(cut.headers['content-type']).toMatch(/^text\/html/)
    expect(cut.body).toContain('<h1>This link does not open Bureau</h1>')
    expect(cut.body).not.toContain(TOKEN)
  })

  it('refuses a foreign Host header (DNS rebinding) with 403, even for /health', async () => {
    for (const hostHeader of ['evil.example:80', `attacker.test:${host.port}`, '127.0.0.1:1', 'localhost']) {
      const res = await rawHttp({ port: host.port, path: '/health', headers: { host: hostHeader } })
      expect(res.status, hostHeader).toBe(403)
    }
    for (const ok of [`localhost:${host.port}`, `127.0.0.1:${host.port}`, `[::1]:${host.port}`]) {
      const res = await rawHttp({ port: host.port, path: '/health', headers: { host: ok } })
      expect(res.status, ok).toBe(200)
    }
  })

  it('refuses a POST with a foreign Origin with 403, accepts its own origin', async () => {
    const foreign = await rawHttp({
      port: host.port,
      method: 'POST',
      path: '/ipc/app.info',
      headers: { ...auth, origin: 'http://evil.example' },
    })
    expect(foreign.status).toBe(403)
    const own = await rawHttp({
      port: host.port,
      method: 'POST',
      path: '/ipc/app.info',
      headers: { ...auth, origin: `http://127.0.0.1:${host.port}` },
    })
    expect(own.status).toBe(200)
  })

  it('answers invalid input with 400 VALIDATION_FAILED and malformed JSON too', async () => {
    const invalid = await rawHttp({
      port: host.port,
      method: 'POST',
      path: '/ipc/app.info',
      headers: auth,
      body: '{"x":1}',
    })
    expect(invalid.status).toBe(400)
    expect(JSON.parse(invalid.body)).toMatchObject({ code: 'VALIDATION_FAILED', issues: expect.any(Array) })
    const malformed = await rawHttp({
      port: host.port,
      method: 'POST',
      path: '/ipc/app.info',
      headers: auth,
      body: '{"x":',
    })
    expect(malformed.status).toBe(400)
    expect(JSON.parse(malformed.body).code).toBe('VALIDATION_FAILED')
  })

  it('answers a chunked body over 64 MiB with 413 while it arrives, without reading it whole', async () => {
    const before = process.memoryUsage().rss
    const res = await rawChunkedPost({
      port: host.port,
      path: '/ipc/app.info',
      headers: auth,
      totalBytes: 200 * 1024 * 1024,
    })
    expect(res.status).toBe(413)
    expect(JSON.parse(res.body).code).toBe('TOO_LARGE')
    // Answered at the limit: far less than the 200 MiB the client was ready to send had gone out.
    expect(res.bytesSent).toBeLessThan(150 * 1024 * 1024)
    console.info(
      `chunked 413 after ${(res.bytesSent / 2 ** 20).toFixed(0)} MiB sent; rss +${((process.memoryUsage().rss - before) / 2 ** 20).toFixed(0)} MiB`,
    )
    const after = await rawHttp({
      port: host.port,
      method: 'POST',
      path: '/ipc/app.info',
      headers: auth,
      body: '{}',
    })
    expect(after.status).toBe(200)
  })

  it('answers an unknown route with 404 UNKNOWN_ROUTE', async () => {
    const res = await rawHttp({
      port: host.port,
      method: 'POST',
      path: '/ipc/nope.nothing',
      headers: auth,
      body: '{}',
    })
    expect(res.status).toBe(404)
    expect(JSON.parse(res.body).code).toBe('UNKNOWN_ROUTE')
  })

  it('sends the CSP on pages', async () => {
    const res = await rawHttp({ port: host.port, path: '/' })
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'")
  })

  it('streams events as server-sent events', async () => {
    const received = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: host.port,
          path: '/ipc/events',
          headers: { host: `127.0.0.1:${host.port}`, ...auth },
        },
        (res) => {
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (chunk: string) => {
            text += chunk
            if (text.includes('event: ready'))
              app.notices.notify({ level: 'info', message: 'hello over sse' })
            if (text.includes('hello over sse')) {
              req.destroy()
              resolve(text)
            }
          })
        },
      )
      req.on('error', reject)
      req.end()
    })
    const line = received.split('\n').find((l) => l.startsWith('data: {"event":"app.notice"'))
    expect(JSON.parse(line?.slice(6) ?? 'null')).toEqual({
      event: 'app.notice',
      payload: { level: 'info', message: 'hello over sse' },
    })
  })

  it('refuses the events stream without the token', async () => {
    const res = await rawHttp({ port: host.port, path: '/ipc/events' })
    expect(res.status).toBe(401)
  })

  it('says clearly when the port is already in use', async () => {
    await expect(startHttpHost({ app, port: host.port, token: TOKEN })).rejects.toThrow(
      `Port ${host.port} on 127.0.0.1 is already in use`,
    )
  })

  it('says clearly when the data folder is not writable', async () => {
    const file = join(await dirs.make(), 'a-file')
    await writeFile(file, 'x')
    await expect(
      createApp({
        host: 'web',
        dataDir: join(file, 'data'),
        workspaceDir: await dirs.make(),
        logger: silentLogger,
      }),
    ).rejects.toThrow(/The data folder .* is not writable \(ENOTDIR\)/)
  })
})
