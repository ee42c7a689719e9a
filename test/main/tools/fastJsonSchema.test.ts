import { tmpdir } from 'node:os'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { openMemoryStore } from '../../../src/main/memory'
import type { Toolset } from '../../../src/main/tools'
import { fastJsonSchema } from '../../../src/main/tools/schema/fastJsonSchema'
import { loadBuiltinToolsets } from '../../../src/main/toolsHost'
import { CalendarSettings, EmailSettings } from '../../../src/shared/settings'
import { files, notes, sheet } from './sampleToolsets'

// Never read: the schemas are all the test looks at.
const memoryStore = openMemoryStore({ dataDir: tmpdir() })

/** The reference: what z.toJSONSchema says, tidied as the catalog does (no `$schema`, no ±2^53 bounds). */
function reference(schema: z.ZodType, io: 'input' | 'output') {
  return JSON.parse(JSON.stringify(z.toJSONSchema(schema, { io, unrepresentable: 'any' })), (key, value) =>
    key === '$schema' ||
    ((key === 'minimum' || key === 'maximum') && Math.abs(value) === Number.MAX_SAFE_INTEGER)
      ? undefined
      : value,
  )
}

const corpus: Record<string, z.ZodType> = {
  strings: z.object({ a: z.string(), b: z.string().min(1).max(9).describe('B'), c: z.string().length(3) }),
  numbers: z.object({
    int: z.number().int(),
    bounded: z.number().int().min(1).max(1000),
    positive: z.number().positive(),
    lt: z.number().lt(5),
    plain: z.number().describe('plain'),
  }),
  wrappers: z.object({
    opt: z.string().optional(),
    def: z.enum(['a', 'b']).default('a').describe('mode'),
    defInner: z.string().describe('inner').default('x'),
    nul: z.boolean().nullable(),
    arr: z
      .array(z.object({ k: z.string() }))
      .min(1)
      .max(4)
      .optional(),
    defObj: z.object({ x: z.number().default(1) }).default({ x: 2 }),
  }),
  composite: z.object({
    lit: z.literal('k'),
    union: z.union([z.string(), z.number()]),
    rec: z.record(z.string(), z.number()),
    any: z.unknown(),
    strict: z.object({ k: z.string() }).strict(),
    nested: z.array(z.array(z.unknown())),
  }),
  meta: z.object({ a: z.string().meta({ examples: ['x'], title: 'A' }) }).describe('top'),
}

const fallbackCorpus: Record<string, z.ZodType> = {
  email: z.object({ e: z.email() }),
  regex: z.object({ r: z.string().regex(/^a+$/) }),
  loose: z.object({ a: z.string() }).loose(),
  mixedUnion: z.object({ u: z.union([z.string(), z.object({ a: z.number() })]) }),
  withId: z.object({ a: z.string().meta({ id: 'A' }) }),
  transform: z.object({ t: z.string().transform((s) => s.length) }),
}

describe('fastJsonSchema', () => {
  for (const [name, schema] of Object.entries(corpus)) {
    for (const io of ['input', 'output'] as const) {
      it(`${name} (${io}) equals z.toJSONSchema`, () => {
        const fast = fastJsonSchema(schema, io)
        expect(fast, 'took the fast path').toBeDefined()
        expect(fast).toEqual(reference(schema, io))
      })
    }
  }

  it('declines what it does not know, so the caller falls back to z.toJSONSchema', () => {
    for (const [name, schema] of Object.entries(fallbackCorpus)) {
      expect(fastJsonSchema(schema, 'input'), name).toBeUndefined()
    }
  })

  it('agrees with z.toJSONSchema on every built-in and sample method, and covers most of them', async () => {
    const toolsets: Toolset[] = [
      ...(await loadBuiltinToolsets({
        email: { settings: () => EmailSettings.parse({}), password: async () => undefined },
        memory: { memory: () => memoryStore },
        calendar: { settings: () => CalendarSettings.parse({}), password: async () => undefined },
      })),
      sheet,
      notes,
      files,
    ]
    let total = 0
    let fast = 0
    for (const toolset of toolsets) {
      for (const [key, method] of Object.entries(toolset.methods)) {
        for (const [schema, io] of [
          [method.input, 'input'],
          [method.output, 'output'],
        ] as const) {
          total++
          const converted = fastJsonSchema(schema, io)
          if (!converted) continue
          fast++
          expect(converted, `${toolset.name}.${key} ${io}`).toEqual(reference(schema, io))
        }
      }
    }
    expect(total).toBeGreaterThan(60)
    expect(fast / total).toBeGreaterThan(0.9)
  })
})
