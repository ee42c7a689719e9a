import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createConversationStore } from '../../../src/main/agent'
import { isAppError } from '../../../src/shared/errors'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-conversations-')
afterEach(() => dirs.cleanup())

function clock(start = Date.parse('2026-01-01T00:00:00Z')) {
  let now = start
  return () => {
    now += 1000
    return new Date(now)
  }
}

describe('conversation store', () => {
  it('keeps one JSON file per conversation, lists newest first, filters by title, survives a new store', async () => {
    const dir = join(await dirs.make(), 'conversations')
    const store = createConversationStore({ dir, now: clock() })
    const a = await store.create({
      firstMessage: 'Quarterly budget review for the board meeting next week please',
    })
    const b = await store.create({ firstMessage: 'Hello' })
    await store.update(a.id, (c) => {
      c.messages.push({
        id: 'm1',
        role: 'user',
        text: 'hi',
        createdAt: '2026-01-01T00:00:00.000Z',
        status: 'done',
        attachments: [{ name: 'a.xlsx', size: 10, status: 'converted', agentPath: '/inbox/a.xlsx' }],
        steps: [],
        files: [],
      })
    })
    expect(a.title).toBe('Quarterly budget review for the board meeting next week…')
    const list = await store.list()
    expect(list.map((c) => c.id)).toEqual([a.id, b.id])
    expect(list[0]?.messageCount).toBe(1)
    expect((await store.list('BUDGET')).map((c) => c.id)).toEqual([a.id])
    expect((await readdir(dir)).sort()).toEqual([`${a.id}.json`, `${b.id}.json`].sort())

    const reopened = createConversationStore({ dir })
    const loaded = await reopened.get(a.id)
    expect(loaded.messages[0]?.attachments[0]).toMatchObject({ name: 'a.xlsx', agentPath: '/inbox/a.xlsx' })
  })

  it('serializes concurrent updates of one conversation (none is lost)', async () => {
    const store = createConversationStore({ dir: await dirs.make() })
    const { id } = await store.create({ title: 'busy' })
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.update(id, (c) => {
          c.messages.push({
            id: `m${i}`,
            role: 'user',
            text: String(i),
            createdAt: new Date().toISOString(),
            status: 'done',
            attachments: [],
            steps: [],
            files: [],
          })
        }),
      ),
    )
    expect((await store.get(id)).messages).toHaveLength(20)
  })

  it('skips a damaged file in the list and says so when it is opened; unknown ids are NOT_FOUND', async () => {
    const dir = await dirs.make()
    const store = createConversationStore({ dir })
    const ok = await store.create({ title: 'fine' })
    await writeFile(join(dir, 'broken.json'), '{"id": "broken", "title": ')
    expect((await store.list()).map((c) => c.id)).toEqual([ok.id])
    const damaged = await store.get('broken').catch((e: unknown) => e)
    expect(isAppError(damaged) && damaged.message).toContain('damaged')
    const missing = await store.get('nope').catch((e: unknown) => e)
    expect(isAppError(missing) && missing.code).toBe('NOT_FOUND')
    // The damaged file is left for the user to inspect, untouched.
    expect(await readFile(join(dir, 'broken.json'), 'utf8')).toBe('{"id": "broken", "title": ')
    const renamed = await store.rename(ok.id, '  New name  ')
    expect(renamed.title).toBe('New name')
    expect(await store.delete(ok.id)).toBe(true)
    expect(await store.delete(ok.id)).toBe(false)
  })
})

describe('conversation store: search, pin, rename', () => {
  const message = (id: string, role: 'user' | 'assistant', text: string) => ({
    id,
    role,
    text,
    createdAt: '2026-01-01T00:00:00.000Z',
    status: 'done' as const,
    attachments: [],
    steps: [],
    files: [],
  })

  it('searches message text too and says where; rename and pin keep the order by last activity', async () => {
    const store = createConversationStore({ dir: await dirs.make(), now: clock() })
    const a = await store.create({ title: 'Travel' })
    await store.update(a.id, (c) => {
      c.messages.push(
        message('u', 'user', 'Book a train'),
        message('r', 'assistant', 'The Zürich train leaves at 9:12 from platform 4.'),
      )
    })
    const b = await store.create({ title: 'Budget' })
    expect((await store.list()).map((c) => c.id)).toEqual([b.id, a.id])

    const [hit] = await store.list('zürich TRAIN')
    expect(hit?.id).toBe(a.id)
    expect(hit?.hit?.messageId).toBe('r')
    expect(hit?.hit?.snippet.slice(hit.hit.start, hit.hit.end)).toBe('Zürich train')
    expect((await store.list('budget'))[0]?.hit).toMatchObject({ start: 0, end: 6 })
    expect(await store.list('nowhere')).toEqual([])

    await store.rename(a.id, 'Trip to Zürich')
    expect((await store.list()).map((c) => c.id)).toEqual([b.id, a.id])
    await store.update(
      a.id,
      (c) => {
        c.pinned = true
      },
      { touch: false },
    )
    const list = await store.list()
    expect(list.map((c) => c.id)).toEqual([a.id, b.id])
    expect(list[0]?.pinned).toBe(true)
  })

  it('messages pushed without a parent continue the branch on screen', async () => {
    const store = createConversationStore({ dir: await dirs.make(), now: clock() })
    const { id } = await store.create({ title: 't' })
    const first = await store.update(id, (c) => {
      c.messages.push(message('u1', 'user', 'q'), message('a1', 'assistant', 'a'))
    })
    expect(first.leafId).toBe('a1')
    expect(first.messages.map((m) => m.parentId)).toEqual([null, 'u1'])
    const second = await store.update(id, (c) => {
      c.messages.push(message('u2', 'user', 'q2'))
    })
    expect(second.messages.at(-1)?.parentId).toBe('a1')
    expect(second.leafId).toBe('u2')
  })
})
