import { mkdir, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BureauApp, createApp } from '../../../src/main/app'
import { silentLogger } from '../../../src/main/platform'
import { startHttpHost } from '../../../src/main/server'
import type { HttpHost } from '../../../src/main/server/createHttpHost'
import { rawHttp } from '../../support/rawHttp'
import { tempDirs } from '../../support/tempDir'
import { containsSecret, filesContaining } from './secretScan'

const dirs = tempDirs()
const TOKEN = 'settings-test-token'
const SECRET = 'sk-http-secret-abcdef0123456789xyz9'
let app: BureauApp
let host: HttpHost
let dataDir: string
const events: Array<{ event: string; payload: unknown }> = []
let sse: { text: () => string; close: () => void }

function ipc(route: string, body?: unknown) {
  return rawHttp({
    port: host.port,
    method: 'POST',
    path: `/ipc/${route}`,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? '' : JSON.stringify(body),
  })
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
}

/** Collects the raw SSE stream, as a browser would receive it. */
function openEventStream(port: number): Promise<{ text: () => string; close: () => void }> {
  return new Promise((resolve, reject) => {
    let text = ''
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/ipc/events',
        headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${TOKEN}` },
      },
      (res) => {
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          text += chunk
          if (text.includes('event: ready')) resolve({ text: () => text, close: () => req.destroy() })
        })
      },
    )
    req.on('error', (error) => {
      if (!text.includes('event: ready')) reject(error)
    })
    req.end()
  })
}

beforeAll(async () => {
  dataDir = await dirs.make()
  app = await createApp({
    host: 'web',
    dataDir,
    workspaceDir: await dirs.make(),
    logger: silentLogger,
    settings: { env: () => undefined },
  })
  app.events.subscribe((event, payload) => events.push({ event, payload }))
  host = await startHttpHost({ app, port: 0, token: TOKEN })
  sse = await openEventStream(host.port)
})

afterAll(async () => {
  sse.close()
  await host.close()
  await app.dispose()
  await dirs.cleanup()
})

describe('settings over HTTP (the headless host)', () => {
  it('settings.get returns the public settings', async () => {
    const res = await ipc('settings.get')
    expect(res.status).toBe(200)
    const body = JSON.parse(res.body)
    expect(body).toMatchObject({
      schemaVersion: 1,
      attachments: { budgetChars: 30000 },
      secretStorage: { kind: 'key-file', secure: true },
      secrets: { 'providers.ollama.apiKey': { set: false } },
    })
  })

  it('settings.setSecret stores it where neither replies, events nor files show it', async () => {
    const before = events.length
    const res = await ipc('settings.setSecret', { name: 'providers.deepseek.apiKey', value: SECRET })
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body).secrets['providers.deepseek.apiKey']).toEqual({
      set: true,
      source: 'stored',
      hint: 'sk-…xyz9',
    })
    const got = await ipc('settings.get')
    // The background index reports its progress whenever it likes; every other event is this call's.
    const changed = events.slice(before).filter((e) => e.event !== 'knowledge.status')
    expect(changed.map((e) => e.event)).toEqual(['settings.changed'])
    await until(() => sse.text().includes('"event":"settings.changed"'))
    expect(sse.text()).toContain('"event":"settings.changed"')
    for (const text of [res.body, got.body, JSON.stringify(events), sse.text()])
      expect(containsSecret(text, SECRET)).toBe(false)
    expect(await filesContaining(dataDir, SECRET)).toEqual([])
    expect(await app.settings.getSecret('providers.deepseek.apiKey')).toBe(SECRET)
  })

  it('settings.update applies a partial and emits settings.changed with public settings', async () => {
    const before = events.length
    const res = await ipc('settings.update', { ui: { theme: 'dark' }, anonymization: { terms: ['ACME'] } })
    expect(res.status).toBe(200)
    const body = JSON.parse(res.body)
    expect(body.ui.theme).toBe('dark')
    expect(body.anonymization).toEqual({ enabled: false, terms: ['ACME'] })
    // As above: the background index's progress may come in between.
    const changed = events.slice(before).filter((e) => e.event !== 'knowledge.status')
    expect(changed.map((e) => e.event)).toEqual(['settings.changed'])
    const [event] = changed
    expect(event?.payload).toMatchObject({ ui: { theme: 'dark' }, secrets: expect.any(Object) })
  })

  it('a bad settings.update is a 400 VALIDATION_FAILED with issues, and changes nothing', async () => {
    const res = await ipc('settings.update', { attachments: { budgetChars: 'lots' } })
    expect(res.status).toBe(400)
    const body = JSON.parse(res.body)
    expect(body.code).toBe('VALIDATION_FAILED')
    expect(body.issues[0].path).toEqual(['attachments', 'budgetChars'])
    const unknown = await ipc('settings.update', { colour: 'red' })
    expect(unknown.status).toBe(400)
    expect(JSON.parse((await ipc('settings.get')).body).attachments.budgetChars).toBe(30000)
  })

  it('a secret sent through settings.update is refused without echoing it', async () => {
    const res = await ipc('settings.update', { providers: { openai: { apiKey: SECRET } } })
    expect(res.status).toBe(400)
    expect(res.body).toContain('settings.setSecret')
    expect(containsSecret(res.body, SECRET)).toBe(false)
  })

  it('settings.setSecret refuses an unknown name or an empty value with 400', async () => {
    const badName = await ipc('settings.setSecret', { name: 'providers.deepseek.model', value: SECRET })
    expect(badName.status).toBe(400)
    expect(containsSecret(badName.body, SECRET)).toBe(false)
    const empty = await ipc('settings.setSecret', { name: 'email.smtpPassword', value: '' })
    expect(empty.status).toBe(400)
  })

  it('settings.clearSecret removes it', async () => {
    const res = await ipc('settings.clearSecret', { name: 'providers.deepseek.apiKey' })
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body).secrets['providers.deepseek.apiKey']).toBeUndefined()
    expect(await app.settings.getSecret('providers.deepseek.apiKey')).toBeUndefined()
  })
})

describe('createApp and the settings', () => {
  it('uses the workspace folder from settings unless --workspace is given', async () => {
    const data = await dirs.make()
    const fromSettings = join(await dirs.make(), 'from-settings')
    await writeFile(
      join(data, 'settings.json'),
      JSON.stringify({ schemaVersion: 1, workspace: { folder: fromSettings } }),
    )
    const quiet = { env: () => undefined }
    const a = await createApp({ host: 'web', dataDir: data, logger: silentLogger, settings: quiet })
    expect(a.workspaceDir).toBe(fromSettings)
    expect(a.settings.workspaceDir()).toEqual({ dir: fromSettings, source: 'settings' })
    await a.dispose()

    const flag = await dirs.make()
    const b = await createApp({
      host: 'web',
      dataDir: data,
      workspaceDir: flag,
      logger: silentLogger,
      settings: quiet,
    })
    expect(b.workspaceDir).toBe(flag)
    await b.dispose()
  })

  it('a corrupt settings file becomes an app.notice the UI can fetch later', async () => {
    const data = await dirs.make()
    await mkdir(data, { recursive: true })
    await writeFile(join(data, 'settings.json'), '{{{')
    const a = await createApp({
      host: 'web',
      dataDir: data,
      workspaceDir: await dirs.make(),
      logger: silentLogger,
      settings: { env: () => undefined },
    })
    const res = await a.router.dispatch('app.notices', undefined, {
      senderId: 'test',
      signal: new AbortController().signal,
    })
    expect(res.ok && (res.value as Array<{ id?: string }>).map((n) => n.id)).toEqual(['settings.corrupt'])
    await a.dispose()
  })
})
