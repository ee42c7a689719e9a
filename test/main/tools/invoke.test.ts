import { describe, expect, it } from 'vitest'
import { createToolSession, invoke, type ProgressUpdate } from '../../../src/main/tools'
import type { Workspace } from '../../../src/main/workspace'
import { disposed, files, notes, sheet } from './sampleToolsets'

function session() {
  return createToolSession({ toolsets: [sheet, files, notes] })
}

describe('invoke pipeline', () => {
  it('returns a typed success with the value, duration and the resolved call', async () => {
    const result = await invoke(session(), 'sheet.setCellValue', {
      path: '/b.xlsx',
      sheet: 'S',
      cell: 'B2',
      value: true,
    })
    expect(result).toMatchObject({
      ok: true,
      value: { sheet: 'S', cell: 'B2', value: true },
      call: { toolset: 'sheet', method: 'setCellValue', name: 'sheet_set_cell_value' },
    })
    expect(result.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('unknown method: resolve failure with the closest names', async () => {
    const result = await invoke(session(), 'sheet_set_cel', {})
    expect(result).toMatchObject({ ok: false, stage: 'resolve', code: 'NOT_FOUND' })
    if (!result.ok) expect(result.error).toContain('set_cell_value')
  })

  it('an AppError from the method comes back as its message, with its code', async () => {
    const result = await invoke(session(), 'notes_fail', { reason: 'q3' })
    expect(result).toMatchObject({
      ok: false,
      stage: 'run',
      code: 'NOT_FOUND',
      error: 'notes_fail failed: Note "q3" not found; notes: a, b',
    })
  })

  it('a plain error loses its stack and host path', async () => {
    const result = await invoke(session(), 'notes_crash', {})
    expect(result).toMatchObject({ ok: false, stage: 'run', code: 'HANDLER_FAILED' })
    if (result.ok) return
    expect(result.error).toBe("notes_crash failed: ENOENT: no such file or directory, open '<path>'")
    expect(result.error).not.toContain('/home/someone')
    expect(result.error).not.toContain('node:fs')
  })

  it('a thrown string is reported', async () => {
    expect(await invoke(session(), 'notes_throw_string', {})).toMatchObject({
      ok: false,
      error: 'notes_throw_string failed: a bare string',
    })
  })

  it('output is validated: a malformed result is reported as a tool bug', async () => {
    const result = await invoke(session(), 'notes_bad_output', {})
    expect(result).toMatchObject({ ok: false, stage: 'output', code: 'INTERNAL' })
    if (!result.ok) expect(result.error).toContain('returned a malformed result at total')
  })

  it('cancellation: aborting the signal ends a running call with CANCELLED; progress is forwarded', async () => {
    const controller = new AbortController()
    const updates: ProgressUpdate[] = []
    const pending = invoke(
      session(),
      'notes_slow',
      {},
      { signal: controller.signal, onProgress: (u) => updates.push(u) },
    )
    await new Promise((resolve) => setImmediate(resolve))
    controller.abort()
    expect(await pending).toMatchObject({ ok: false, stage: 'cancelled', code: 'CANCELLED' })
    expect(updates).toEqual([{ message: 'waiting', fraction: 0.5 }])
  })

  it('an already-aborted signal never runs the method', async () => {
    const result = await invoke(session(), 'notes_slow', {}, { signal: AbortSignal.abort() })
    expect(result).toMatchObject({ ok: false, stage: 'cancelled' })
  })

  it('a throwing progress listener does not fail the call', async () => {
    const controller = new AbortController()
    const pending = invoke(
      session(),
      'notes_slow',
      {},
      {
        signal: controller.signal,
        onProgress: () => {
          throw new Error('listener broke')
        },
      },
    )
    await new Promise((resolve) => setImmediate(resolve))
    controller.abort()
    expect(await pending).toMatchObject({ stage: 'cancelled' })
  })

  it('a method that needs a workspace fails clearly when the session has none', async () => {
    const result = await invoke(session(), 'notes_needs_workspace', { path: '/a' })
    expect(result).toMatchObject({ ok: false, code: 'UNAVAILABLE' })
    if (!result.ok) expect(result.error).toContain('No workspace folder is open')
  })

  it('the workspace factory runs on first use only; its root is shown as / in plain errors', async () => {
    let created = 0
    const root = '/srv/users/alice/Bureau'
    const workspace = {
      root,
      resolve: async (path: string) => {
        throw new Error(`EACCES: permission denied, open '${root}${path}'`)
      },
    } as unknown as Workspace
    const s = createToolSession({
      toolsets: [notes],
      workspace: () => {
        created++
        return workspace
      },
    })
    await invoke(s, 'notes_count', {})
    expect(created).toBe(0)
    const result = await invoke(s, 'notes_needs_workspace', { path: '/reports/q3.xlsx' })
    expect(created).toBe(1)
    expect(result).toMatchObject({
      ok: false,
      error: "notes_needs_workspace failed: EACCES: permission denied, open '/reports/q3.xlsx'",
    })
  })

  it('the `cli` name runs a terminal command (CLI mode through the same entry point)', async () => {
    const s = session()
    expect(await invoke(s, 'cli', { command: 'files list /docs --recursive' })).toMatchObject({
      ok: true,
      value: { dir: '/docs', recursive: true },
    })
    expect(await invoke(s, 'cli', '{"command": "files list"}')).toMatchObject({ ok: true })
    expect(await invoke(s, 'cli', 'files --help')).toMatchObject({ ok: true, help: true })
    expect(await invoke(s, 'cli', { cmd: 'x' })).toMatchObject({ ok: false, stage: 'arguments' })
  })
})

describe('tool sessions', () => {
  it('state is per session, created lazily and disposed at the end', async () => {
    const a = session()
    const b = session()
    await invoke(a, 'notes_count', {})
    await invoke(a, 'notes_count', {})
    expect(await invoke(a, 'notes_count', {})).toMatchObject({ value: { calls: 3 } })
    expect(await invoke(b, 'notes_count', {})).toMatchObject({ value: { calls: 1 } })
    disposed.length = 0
    expect(await a.dispose()).toEqual({ errors: [] })
    expect(disposed).toEqual([3])
    expect(await b.dispose()).toEqual({ errors: [] })
    expect(disposed).toEqual([3, 1])
    expect(await session().dispose()).toEqual({ errors: [] })
    expect(disposed).toEqual([3, 1])
  })

  it('a disposed session refuses calls and aborts running ones', async () => {
    const s = session()
    const pending = invoke(s, 'notes_slow', {})
    await new Promise((resolve) => setImmediate(resolve))
    await s.dispose()
    expect(await pending).toMatchObject({ ok: false, stage: 'cancelled' })
    expect(await invoke(s, 'notes_count', {})).toMatchObject({ ok: false, stage: 'session' })
  })

  it('runs many calls at once on one session without a listener-leak warning on its signal', async () => {
    const warnings: Error[] = []
    const onWarning = (warning: Error) => warnings.push(warning)
    process.on('warning', onWarning)
    try {
      const s = session()
      const pending = Array.from({ length: 24 }, () => invoke(s, 'notes_slow', {}))
      await new Promise((resolve) => setImmediate(resolve))
      await s.dispose()
      const results = await Promise.all(pending)
      expect(results.every((result) => !result.ok && result.stage === 'cancelled')).toBe(true)
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve))
    } finally {
      process.off('warning', onWarning)
    }
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([])
  })
})

describe('bad input never throws out of the pipeline', () => {
  const weird: unknown[] = [
    undefined,
    null,
    0,
    Number.NaN,
    '',
    '{',
    '}}}{{{',
    '[1,2,3]',
    '"just a string"',
    'null',
    true,
    [],
    [{}],
    { __proto__: { polluted: true } },
    JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}'),
    { path: { nested: { deep: [1, 2, { x: Symbol('s') }] } } },
    { path: 10n },
    { path: () => 1 },
    Object.create(null),
    new Date(),
    new Map([['a', 1]]),
    'x'.repeat(100_000),
    '{"a":'.repeat(2_000),
    '\u0000\u0001\uFFFF',
    '```json\n```',
  ]
  const circular: Record<string, unknown> = { path: '/a' }
  circular.self = circular
  weird.push(circular)
  const names: unknown[] = [
    '',
    'cli',
    'files_write_text',
    'sheet_add_chart',
    'notes_crash',
    '???',
    'x'.repeat(10_000),
    undefined,
    null,
    42,
    {},
  ]

  it('every name x argument combination returns a ToolResult', async () => {
    const s = session()
    for (const name of names) {
      for (const raw of weird) {
        const result = await invoke(s, name as string, raw)
        expect(typeof result.ok).toBe('boolean')
        expect(typeof result.durationMs).toBe('number')
        if (!result.ok) {
          expect(result.error).not.toMatch(/\n\s+at /)
          expect(result.error.length).toBeLessThan(2_000)
        }
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
