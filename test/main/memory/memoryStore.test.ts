import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { openMemoryStore, secretReason } from '../../../src/main/memory'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-memory-')
afterAll(() => dirs.cleanup())
let dataDir = ''
beforeEach(async () => {
  dataDir = await dirs.make()
})

const settings = { kind: 'settings' } as const

describe('memory store', () => {
  it('stores a memory and returns it as read back from the file', async () => {
    const store = openMemoryStore({ dataDir })
    const memory = await store.add({ text: '  Anna means anna.berg@firma.de ', source: settings })
    expect(memory).toMatchObject({ text: 'Anna means anna.berg@firma.de', scope: { kind: 'everywhere' } })
    const onDisk = JSON.parse(await readFile(join(dataDir, 'memories.json'), 'utf8'))
    expect(onDisk.schemaVersion).toBe(1)
    expect(onDisk.memories).toEqual([memory])
    // A second store on the same folder (another process) reads the same.
    expect(await openMemoryStore({ dataDir }).list()).toEqual([memory])
  })

  it('refuses things that look like keys and passwords with a clear message, and stores nothing', async () => {
    const store = openMemoryStore({ dataDir })
    await expect(
      store.add({ text: 'My OpenAI key is sk-proj-4fQ9xT2mLr8ZpW7vK3nB1cYd', source: settings }),
    ).rejects.toThrow(/Not stored: this looks like an API key.*Keep secrets in Settings/)
    await expect(store.add({ text: 'The SMTP password is Hunter2!x', source: settings })).rejects.toThrow(
      /password or key/,
    )
    await expect(
      store.add({ text: 'token: 9fK2mQ7xL4pR8tZ1vB6nC3wD5yH0jA', source: settings }),
    ).rejects.toThrow(/Not stored/)
    expect(await store.list()).toEqual([])
    for (const ok of [
      'Invoices go to /finance/invoices/2025',
      'Anna means anna.berg@firma.de',
      'IBAN of Müller GmbH is DE89370400440532013000',
      'The SMTP password is in Settings → E-mail',
      'Dates as 31.12.2025, numbers as 1.234,56',
    ]) {
      expect(secretReason(ok), ok).toBeUndefined()
    }
    for (const secret of [
      'ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5',
      'AKIAIOSFODNN7EXAMPLE is the AWS key',
      'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc',
      'Das Passwort lautet Sommer2025',
      'https://jan:geheim@mail.firma.de',
    ]) {
      expect(secretReason(secret), secret).toBeDefined()
    }
  })

  it('keeps workspace memories to their folder', async () => {
    const store = openMemoryStore({ dataDir })
    const a = await store.add({
      text: 'Reports use the blue template',
      scope: { kind: 'workspace', folder: '/tmp/ws-a' },
      source: settings,
    })
    const all = await store.add({ text: 'My name is Jan', source: settings })
    expect((await store.list({ workspace: '/tmp/ws-a' })).map((m) => m.id).sort()).toEqual(
      [a.id, all.id].sort(),
    )
    expect((await store.list({ workspace: '/tmp/ws-b' })).map((m) => m.id)).toEqual([all.id])
  })

  it('updates, removes, clears and restores; a missing id says how to find one', async () => {
    const store = openMemoryStore({ dataDir, now: () => new Date('2026-01-02T03:04:05Z') })
    const first = await store.add({ text: 'Invoices go to /finance', source: settings })
    const changed = await store.update(first.id, { text: 'Invoices go to /finance/2026' })
    expect(changed).toMatchObject({ id: first.id, text: 'Invoices go to /finance/2026' })
    await expect(store.update('nope', { text: 'x' })).rejects.toThrow(/No memory with id "nope"/)
    await expect(store.update(first.id, { text: 'password: abc12345' })).rejects.toThrow(/Not stored/)
    expect((await store.get(first.id)).text).toBe('Invoices go to /finance/2026')
    await store.add({ text: 'Anna is the office manager', source: settings })
    const removed = await store.clear()
    expect(removed).toHaveLength(2)
    expect(await store.list()).toEqual([])
    expect(await store.restore(removed)).toBe(2)
    expect(await store.restore(removed)).toBe(0)
    expect(await store.list()).toHaveLength(2)
    expect((await store.remove(first.id)).id).toBe(first.id)
    expect(await store.list()).toHaveLength(1)
  })

  it('finds close memories in the same scope', async () => {
    const store = openMemoryStore({ dataDir })
    const old = await store.add({ text: 'Invoices are saved in /finance/invoices', source: settings })
    await store.add({ text: 'Anna prefers calls in the morning', source: settings })
    const close = await store.similar('Invoices are now saved in /archive/invoices', { kind: 'everywhere' })
    expect(close.map((m) => m.id)).toEqual([old.id])
    expect(await store.similar('The printer is on floor 3', { kind: 'everywhere' })).toEqual([])
    expect(await store.similar('Invoices are saved in /x', { kind: 'workspace', folder: '/w' })).toEqual([])
  })

  it('exports and imports JSON; a bad file imports nothing and says why', async () => {
    const store = openMemoryStore({ dataDir })
    await store.add({ text: 'Anna means anna.berg@firma.de', source: settings })
    const exported = await store.exportAll()
    const other = openMemoryStore({ dataDir: await dirs.make() })
    expect(await other.importAll(JSON.parse(JSON.stringify(exported)))).toEqual({
      added: 1,
      skipped: 0,
      refused: 0,
    })
    expect(await other.importAll(exported)).toEqual({ added: 0, skipped: 1, refused: 0 })
    const withSecret = {
      ...exported,
      memories: [{ ...exported.memories[0], id: 'mx', text: 'api key = sk-abcdefghijklmnopqrstuv' }],
    }
    expect(await other.importAll(withSecret)).toEqual({ added: 0, skipped: 0, refused: 1 })
    await expect(other.importAll({ memories: 'no' })).rejects.toThrow(
      /Not a Bureau memories export.*nothing was imported/,
    )
    expect((await other.list()).map((m) => m.text)).toEqual(['Anna means anna.berg@firma.de'])
  })

  it('moves a damaged file aside and keeps working', async () => {
    await writeFile(join(dataDir, 'memories.json'), '{"memories": [{"broken": true}]')
    const moved: string[] = []
    const store = openMemoryStore({ dataDir, onDamaged: (name) => moved.push(name) })
    expect(await store.list()).toEqual([])
    expect(moved).toHaveLength(1)
    expect(await readdir(dataDir)).toContain(moved[0])
    await store.add({ text: 'My name is Jan', source: settings })
    expect(await store.list()).toHaveLength(1)
  })

  it('keeps preferences: pause and the token budget', async () => {
    const store = openMemoryStore({ dataDir })
    expect(await store.preferences()).toEqual({ paused: false, saveWithoutAsking: false, budgetTokens: 300 })
    expect(await store.setPreferences({ paused: true, budgetTokens: 120 })).toMatchObject({
      paused: true,
      budgetTokens: 120,
    })
    expect(await openMemoryStore({ dataDir }).preferences()).toMatchObject({
      paused: true,
      budgetTokens: 120,
    })
    await expect(store.setPreferences({ budgetTokens: -1 })).rejects.toThrow()
  })
})
