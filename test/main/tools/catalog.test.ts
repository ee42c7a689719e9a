import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  buildApiTools,
  createToolRegistry,
  defineToolset,
  getCatalog,
  method,
  toolsetIndex,
} from '../../../src/main/tools'
import { files, sheet } from './sampleToolsets'

describe('catalog', () => {
  const toolsets = [sheet, files]

  it('API mode: one function per method, snake_case names, JSON Schema parameters (snapshot)', () => {
    const tools = buildApiTools(toolsets)
    expect(tools.map((t) => t.function.name)).toEqual([
      'sheet_set_cell_value',
      'sheet_get_range',
      'sheet_append_rows',
      'sheet_add_chart',
      'sheet_tag',
      'sheet_list',
      'files_list',
      'files_write_text',
    ])
    for (const tool of tools) expect(tool.function.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/)
    expect(tools).toMatchSnapshot()
  })

  it('API parameters: defaults make fields optional, descriptions carried, no $schema or int bounds', () => {
    const range = buildApiTools([sheet]).find((t) => t.function.name === 'sheet_get_range')!
    const params = range.function.parameters
    expect(params.required).toEqual(['path', 'sheet', 'range'])
    expect(params.properties?.detailed).toEqual({
      default: false,
      description: 'Return the sparse receipt shape.',
      type: 'boolean',
    })
    expect(params.properties?.limit).toEqual({ default: 100, type: 'integer', minimum: 1, maximum: 1000 })
    expect(JSON.stringify(params)).not.toContain('$schema')
    expect(JSON.stringify(params)).not.toContain('9007199254740991')
  })

  it('a method without parameters still gets an object schema with properties', () => {
    const ping = defineToolset({
      name: 'ping',
      summary: 'Ping.',
      methods: {
        ping: method({
          description: 'Pong.',
          input: z.object({}),
          output: z.string(),
          risk: 'read',
          run: () => 'pong',
        }),
      },
    })
    expect(buildApiTools([ping])[0]?.function.parameters).toEqual({ type: 'object', properties: {} })
  })

  it('CLI mode: a single short `cli` tool; the toolsets are listed by the system prompt (snapshot)', () => {
    const catalog = getCatalog(toolsets, 'cli')
    expect(catalog.tools).toHaveLength(1)
    expect(catalog.tools[0]?.function.name).toBe('cli')
    expect(catalog.tools[0]?.function.parameters.required).toEqual(['command'])
    expect(catalog.tools[0]?.function.description).toContain('<toolset> --help')
    expect(catalog.tools[0]).toMatchSnapshot()
    expect(toolsetIndex(toolsets)).toBe(
      `- sheet: A fake spreadsheet toolset for tests.\n- files: ${files.summary}`,
    )
  })

  it('API tools state a shared description once per toolset and drop validation-only keywords', () => {
    const shared = 'The workbook, an .xlsx path in the workspace.'
    const book = defineToolset({
      name: 'book',
      summary: 'Books.',
      description: 'Every method takes the workbook path first.',
      methods: {
        first: method({
          description: 'First.',
          input: z.object({ path: z.string().min(1).describe(shared), cells: z.array(z.string()).min(1) }),
          output: z.null(),
          risk: 'read',
          run: () => null,
        }),
        second: method({
          description: 'Second.',
          input: z.object({ path: z.string().min(1).describe(shared) }),
          output: z.null(),
          risk: 'read',
          run: () => null,
        }),
      },
    })
    const [first, second] = buildApiTools([book])
    expect(first?.function.description).toBe(
      'First.\nbook toolset: Every method takes the workbook path first.',
    )
    expect(first?.function.parameters.properties?.path).toEqual({ type: 'string', description: shared })
    expect(first?.function.parameters.properties?.cells).toEqual({ type: 'array', items: { type: 'string' } })
    expect(second?.function.description).toBe('Second.')
    expect(second?.function.parameters.properties?.path).toEqual({ type: 'string' })
  })

  it('is cached per registry snapshot and rebuilt only when the set of toolsets changes', () => {
    const registry = createToolRegistry([sheet])
    const first = getCatalog(registry.list(), 'api')
    expect(getCatalog(registry.list(), 'api')).toBe(first)
    registry.add(files)
    const second = getCatalog(registry.list(), 'api')
    expect(second).not.toBe(first)
    expect(second.tools).toHaveLength(first.tools.length + 2)
    expect(getCatalog(registry.list(), 'api')).toBe(second)
  })

  it('the registry refuses a second toolset whose API names collide', () => {
    const a = defineToolset({
      name: 'a_b',
      summary: 'A.',
      methods: {
        c: method({ description: 'c', input: z.object({}), output: z.null(), risk: 'read', run: () => null }),
      },
    })
    const b = defineToolset({
      name: 'a',
      summary: 'B.',
      methods: {
        bC: method({
          description: 'c',
          input: z.object({}),
          output: z.null(),
          risk: 'read',
          run: () => null,
        }),
      },
    })
    const registry = createToolRegistry([a])
    expect(registry.add(b)).toEqual({
      added: false,
      reason: 'method name "a_b_c" is already provided by another toolset',
    })
    expect(registry.add(a)).toEqual({ added: false, reason: 'toolset "a_b" is already provided by builtin' })
  })
})

describe('defineToolset / method validation', () => {
  const ok = () =>
    method({ description: 'x', input: z.object({}), output: z.null(), risk: 'read', run: () => null })

  it.each([
    [{ name: 'Bad-Name', summary: 's', methods: { a: ok() } }, 'must be lowercase'],
    [{ name: 'help', summary: 's', methods: { a: ok() } }, 'reserved'],
    [{ name: 'x', summary: '', methods: { a: ok() } }, 'one-line summary'],
    [{ name: 'x', summary: 'two\nlines', methods: { a: ok() } }, 'one-line summary'],
    [{ name: 'x', summary: 's', methods: {} }, 'at least one method'],
    [{ name: 'x', summary: 's', methods: { 'bad-key': ok() } }, 'camelCase'],
    [{ name: 'x', summary: 's', methods: { a: { description: 'not made by method()' } } }, 'method({...})'],
    [{ name: 'x'.repeat(40), summary: 's', methods: { ['y'.repeat(30)]: ok() } }, 'longer than 64'],
  ])('refuses %#', (spec, message) => {
    expect(() => defineToolset(spec as never)).toThrow(message)
  })

  it('refuses bad method declarations, including an example that does not match the input', () => {
    expect(() =>
      method({ description: '', input: z.object({}), output: z.null(), risk: 'read', run: () => null }),
    ).toThrow('description')
    expect(() =>
      method({
        description: 'd',
        input: z.string() as never,
        output: z.null(),
        risk: 'read',
        run: () => null,
      }),
    ).toThrow('z.object')
    expect(() =>
      method({
        description: 'd',
        input: z.object({}),
        output: z.null(),
        risk: 'delete' as never,
        run: () => null,
      }),
    ).toThrow('risk')
    expect(() =>
      method({
        description: 'd',
        input: z.object({ n: z.number() }),
        output: z.null(),
        examples: [{ n: 'x' as never }],
        risk: 'read',
        run: () => null,
      }),
    ).toThrow('example 1')
  })
})
