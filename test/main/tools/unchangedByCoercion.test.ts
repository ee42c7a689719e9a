import { beforeAll, describe, expect, it, vi } from 'vitest'
import { createToolSession, invoke, type Toolset } from '../../../src/main/tools'
import { methodInfo } from '../../../src/main/tools/call/methodInfo'
import { unchangedByCoercion } from '../../../src/main/tools/call/unchangedByCoercion'
import type { JsonSchema } from '../../../src/main/tools/schema/jsonSchema'
import { loadBuiltinToolsets } from '../../../src/main/toolsHost'
import { CalendarSettings, EmailSettings } from '../../../src/shared/settings'
import { files, notes, sheet } from './sampleToolsets'

type CoerceModule = typeof import('../../../src/main/tools/call/coerceArguments')

// The same coercion module twice: as shipped, and with the fast path switched off (the tolerant walk
// everywhere). Whatever the input, both must give the same result.
let fast: CoerceModule
let slow: CoerceModule
beforeAll(async () => {
  fast = await import('../../../src/main/tools/call/coerceArguments')
  vi.resetModules()
  vi.doMock('../../../src/main/tools/call/unchangedByCoercion', () => ({ unchangedByCoercion: () => null }))
  slow = await import('../../../src/main/tools/call/coerceArguments')
  vi.doUnmock('../../../src/main/tools/call/unchangedByCoercion')
  vi.resetModules()
})

const schemas: Record<string, JsonSchema> = {
  cellValues: {
    type: 'array',
    items: { type: 'array', items: { type: ['string', 'number', 'boolean', 'null'] } },
  },
  integers: { type: 'array', items: { type: ['integer', 'string'] } },
  numbers: { type: 'array', items: { type: 'number' } },
  flags: { type: 'array', items: { type: 'boolean' } },
  modes: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
  object: {
    type: 'object',
    properties: {
      sheet: { type: 'string' },
      dataRange: { type: 'string' },
      count: { type: 'integer' },
      note: { type: ['string', 'null'] },
    },
    required: ['sheet'],
  },
  extras: { type: 'object', properties: {}, additionalProperties: { type: 'number' } },
  anything: {},
  tuple: { type: 'array', prefixItems: [{ type: 'number' }], items: { type: 'string' } },
  anyOf: { anyOf: [{ type: 'number' }, { type: 'array', items: { type: 'number' } }] },
}

const samples: unknown[] = [
  [
    [1, 'a', true, null],
    ['2', 'b', false, 3.5],
  ],
  [[1, { x: 1 }]],
  [[1, undefined]],
  [1, 2, 3],
  [1, '2', 3],
  [1.5, 'x'],
  ['true', 'no', true],
  ['a', 'b'],
  ['A', 'b'],
  'a, b',
  '[1, 2]',
  '',
  null,
  7,
  '7',
  { sheet: 'S', dataRange: 'A1', count: 3, note: null },
  { sheet: 'S', data_range: 'A1', count: '3' },
  { sheet: 'S', DataRange: 'A1', dataRange: 'B2' },
  { sheet: 'S', note: '' },
  { sheet: 'S', count: undefined },
  { sheet: 'S', toString: 'x' },
  JSON.parse('{"sheet": "S", "__proto__": {"a": 1}}'),
  { a: 1, b: '2' },
  { a: 1, b: 2 },
  '{"sheet": "S"}',
]

/** The coerced value, or the error the walk threw (a throw must stay a throw). */
function outcome(run: () => unknown): unknown {
  try {
    return { value: run() }
  } catch (error) {
    return { error: String(error) }
  }
}

describe('fast path of argument coercion', () => {
  it('gives exactly what the tolerant walk gives, for valid and invalid values alike', () => {
    let taken = 0
    for (const [name, schema] of Object.entries(schemas)) {
      for (const value of samples) {
        const expected = outcome(() => slow.coerceValue(value, schema, schema))
        expect(
          outcome(() => fast.coerceValue(value, schema, schema)),
          `${name} ${JSON.stringify(value)}`,
        ).toStrictEqual(expected)
        if (unchangedByCoercion(schema)?.(value)) taken++
      }
    }
    expect(taken).toBeGreaterThan(10)
  })

  it('agrees with the walk on every built-in and sample method for typical and sloppy arguments', async () => {
    const toolsets: Toolset[] = [
      ...(await loadBuiltinToolsets({
        email: { settings: () => EmailSettings.parse({}), password: async () => undefined },
        calendar: { settings: () => CalendarSettings.parse({}), password: async () => undefined },
      })),
      sheet,
      notes,
      files,
    ]
    const variants = (value: unknown): unknown[] => [value, String(value), [value], null, '', undefined]
    let checked = 0
    for (const toolset of toolsets) {
      for (const [key, method] of Object.entries(toolset.methods)) {
        const { input, params } = methodInfo(method)
        for (const param of params) {
          const base = param.default ?? (param.isArray ? ['x', 2] : param.isBoolean ? true : 'x')
          for (const value of variants(base)) {
            const args = { [param.name]: value, [param.name.toUpperCase()]: 1, extra: [1] }
            expect(
              outcome(() => fast.coerceArguments(args, input)),
              `${toolset.name}.${key} ${param.name}`,
            ).toStrictEqual(outcome(() => slow.coerceArguments(args, input)))
            checked++
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(500)
  })

  it('skips the walk and the copy for a large well-formed 2-D array', () => {
    const schema = schemas.cellValues!
    const values = Array.from({ length: 1000 }, (_, r) =>
      Array.from({ length: 10 }, (_, c) => (c % 2 ? `t${r}` : r)),
    )
    expect(fast.coerceValue(values, schema, schema)).toBe(values)
    expect(slow.coerceValue(values, schema, schema), 'the reference walks and copies').not.toBe(values)
    const sloppy = values.map((row) => [...row])
    sloppy[999]![9] = 5 as never
    ;(sloppy[500] as unknown[])[3] = undefined
    expect(fast.coerceValue(sloppy, schema, schema)).not.toBe(sloppy)
  })
})

describe('invoke with a large array', () => {
  const session = createToolSession({ toolsets: [sheet, files, notes] })
  const rows = () =>
    Array.from({ length: 1000 }, (_, r) => Array.from({ length: 10 }, (_, c) => (c % 2 ? `t${r}` : r * c)))

  it('accepts a valid 10,000-cell array and hands the method an equal copy', async () => {
    const input = rows()
    const result = await invoke(session, 'sheet_append_rows', { path: '/b.xlsx', sheet: 'S', rows: input })
    expect(result).toMatchObject({ ok: true, value: { appended: 1000 } })
    expect(result.ok && result.call?.args?.rows).toEqual(input)
    expect(result.ok && result.call?.args?.rows).not.toBe(input)
  })

  it('still repairs a sloppy item and still names an invalid one, with the same text as before', async () => {
    const input = rows()
    ;(input[999] as unknown[])[9] = { nested: true }
    const result = await invoke(session, 'sheet_append_rows', { path: '/b.xlsx', sheet: 'S', rows: input })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error).toBe(
      [
        'Invalid arguments for sheet_append_rows:',
        '- rows[999][9]: expected another type, received {"nested":true}',
        'Parameters: {path: string, sheet: string, rows: ((string | number | boolean | null)[])[]}',
      ].join('\n'),
    )
    const tags = await invoke(session, 'sheet_tag', {
      tags: 'a, b',
      weights: [...Array.from({ length: 5000 }, (_, i) => i), '7'],
    })
    expect(tags).toMatchObject({ ok: true })
    expect(tags.ok && (tags.value as { tags: string[]; weights: number[] }).weights.at(-1)).toBe(7)
    expect(tags.ok && (tags.value as { tags: string[] }).tags).toEqual(['a', 'b'])
  })
})
