import { describe, expect, it } from 'vitest'
import { createToolSession, invoke } from '../../../src/main/tools'
import { files, sheet } from './sampleToolsets'

const session = createToolSession({ toolsets: [sheet, files] })
const cell = { path: '/b.xlsx', sheet: 'Sales', cell: 'A1' }

interface Case {
  label: string
  name: string
  raw: unknown
  /** The validated arguments the method must receive. */
  args: Record<string, unknown>
}

// Broken argument payloads as real models send them (OpenAI-compatible servers, small local models).
const corpus: Case[] = [
  {
    label: 'plain object',
    name: 'sheet_set_cell_value',
    raw: { ...cell, value: 5 },
    args: { ...cell, value: 5 },
  },
  {
    label: 'JSON text',
    name: 'sheet_set_cell_value',
    raw: '{"path":"/b.xlsx","sheet":"Sales","cell":"A1","value":5}',
    args: { ...cell, value: 5 },
  },
  {
    label: 'prose before and after the JSON',
    name: 'sheet_set_cell_value',
    raw: 'Sure! I will set the cell now: {"path": "/b.xlsx", "sheet": "Sales", "cell": "A1", "value": 5} Let me know if you need more.',
    args: { ...cell, value: 5 },
  },
  {
    label: 'json fenced block',
    name: 'sheet_set_cell_value',
    raw: 'Here are the arguments:\n```json\n{"path": "/b.xlsx", "sheet": "Sales", "cell": "A1", "value": 5}\n```',
    args: { ...cell, value: 5 },
  },
  {
    label: 'unlabelled fence',
    name: 'sheet_set_cell_value',
    raw: '```\n{"path": "/b.xlsx", "sheet": "Sales", "cell": "A1", "value": "x"}\n```',
    args: { ...cell, value: 'x' },
  },
  {
    label: 'trailing comma',
    name: 'sheet_set_cell_value',
    raw: '{"path":"/b.xlsx","sheet":"Sales","cell":"A1","value":5,}',
    args: { ...cell, value: 5 },
  },
  {
    label: 'single quotes',
    name: 'sheet_set_cell_value',
    raw: "{'path': '/b.xlsx', 'sheet': 'Sales', 'cell': 'A1', 'value': 'ok'}",
    args: { ...cell, value: 'ok' },
  },
  {
    label: 'unquoted keys',
    name: 'sheet_set_cell_value',
    raw: '{path: "/b.xlsx", sheet: "Sales", cell: "A1", value: 7}',
    args: { ...cell, value: 7 },
  },
  {
    label: 'python literals',
    name: 'sheet_get_range',
    raw: "{'path': '/b.xlsx', 'sheet': 'Sales', 'range': 'A1:B2', 'detailed': True}",
    args: { path: '/b.xlsx', sheet: 'Sales', range: 'A1:B2', detailed: true, limit: 100 },
  },
  {
    label: 'truncated JSON (missing closing brace)',
    name: 'sheet_set_cell_value',
    raw: '{"path":"/b.xlsx","sheet":"Sales","cell":"A1","value":5',
    args: { ...cell, value: 5 },
  },
  {
    label: 'JS comments',
    name: 'sheet_set_cell_value',
    raw: '{\n  // the workbook\n  "path": "/b.xlsx", "sheet": "Sales", "cell": "A1", "value": 1 /* one */\n}',
    args: { ...cell, value: 1 },
  },
  {
    label: 'double-encoded JSON string',
    name: 'sheet_set_cell_value',
    raw: JSON.stringify(JSON.stringify({ ...cell, value: 3 })),
    args: { ...cell, value: 3 },
  },
  {
    label: 'number as string',
    name: 'sheet_get_range',
    raw: { path: '/b.xlsx', sheet: 'S', range: 'A1', limit: '42' },
    args: { path: '/b.xlsx', sheet: 'S', range: 'A1', detailed: false, limit: 42 },
  },
  {
    label: 'decimal as string',
    name: 'sheet_tag',
    raw: { tags: ['a'], weights: ['3.14', '-2', '1e3'] },
    args: { tags: ['a'], weights: [3.14, -2, 1000] },
  },
  {
    label: 'boolean as "true"',
    name: 'sheet_get_range',
    raw: { path: '/p', sheet: 'S', range: 'A1', detailed: 'true' },
    args: { path: '/p', sheet: 'S', range: 'A1', detailed: true, limit: 100 },
  },
  {
    label: 'boolean as "yes"',
    name: 'files_list',
    raw: { dir: '/docs', recursive: 'yes' },
    args: { dir: '/docs', recursive: true },
  },
  {
    label: 'boolean as "1"',
    name: 'files_list',
    raw: { recursive: '1' },
    args: { dir: '/', recursive: true },
  },
  {
    label: 'boolean as "No"',
    name: 'files_list',
    raw: { recursive: 'No' },
    args: { dir: '/', recursive: false },
  },
  { label: 'boolean as 0', name: 'files_list', raw: { recursive: 0 }, args: { dir: '/', recursive: false } },
  {
    label: 'array as comma string',
    name: 'sheet_tag',
    raw: { tags: 'red, green,blue' },
    args: { tags: ['red', 'green', 'blue'] },
  },
  {
    label: 'array as JSON string',
    name: 'sheet_tag',
    raw: { tags: '["red","green"]' },
    args: { tags: ['red', 'green'] },
  },
  { label: 'single value for an array', name: 'sheet_tag', raw: { tags: 'red' }, args: { tags: ['red'] } },
  {
    label: 'numbers array as comma string',
    name: 'sheet_tag',
    raw: { tags: ['x'], weights: '1, 2.5' },
    args: { tags: ['x'], weights: [1, 2.5] },
  },
  {
    label: '2-D array as JSON string',
    name: 'sheet_append_rows',
    raw: { path: '/b', sheet: 'S', rows: '[["a", 1], ["b", 2]]' },
    args: {
      path: '/b',
      sheet: 'S',
      rows: [
        ['a', 1],
        ['b', 2],
      ],
    },
  },
  {
    label: 'missing optional fields get defaults',
    name: 'sheet_get_range',
    raw: { path: '/p', sheet: 'S', range: 'A1' },
    args: { path: '/p', sheet: 'S', range: 'A1', detailed: false, limit: 100 },
  },
  {
    label: 'null for optional fields',
    name: 'sheet_add_chart',
    raw: { path: '/p', sheet: 'S', type: 'line', data_range: 'A1:B3', title: null, anchor: null },
    args: { path: '/p', sheet: 'S', type: 'line', data_range: 'A1:B3' },
  },
  {
    label: 'empty string for optional number',
    name: 'sheet_get_range',
    raw: { path: '/p', sheet: 'S', range: 'A1', limit: '' },
    args: { path: '/p', sheet: 'S', range: 'A1', detailed: false, limit: 100 },
  },
  {
    label: 'extra fields are dropped',
    name: 'files_write_text',
    raw: { path: '/a.txt', text: 'hi', encoding: 'utf8', reason: 'user asked' },
    args: { path: '/a.txt', text: 'hi' },
  },
  {
    label: 'camelCase key for a snake_case field',
    name: 'sheet_add_chart',
    raw: { path: '/p', sheet: 'S', type: 'bar', dataRange: 'A1:C4' },
    args: { path: '/p', sheet: 'S', type: 'bar', data_range: 'A1:C4' },
  },
  {
    label: 'kebab-case key',
    name: 'sheet_add_chart',
    raw: { path: '/p', sheet: 'S', type: 'bar', 'data-range': 'A1:C4' },
    args: { path: '/p', sheet: 'S', type: 'bar', data_range: 'A1:C4' },
  },
  {
    label: 'enum in another case',
    name: 'sheet_add_chart',
    raw: { path: '/p', sheet: 'S', type: 'Column', data_range: 'A1:C4' },
    args: { path: '/p', sheet: 'S', type: 'column', data_range: 'A1:C4' },
  },
  {
    label: 'nested object as JSON string',
    name: 'sheet_add_chart',
    raw: {
      path: '/p',
      sheet: 'S',
      type: 'pie',
      data_range: 'A1:B2',
      anchor: '{"cell": "E2", "width": "300"}',
    },
    args: { path: '/p', sheet: 'S', type: 'pie', data_range: 'A1:B2', anchor: { cell: 'E2', width: 300 } },
  },
  {
    label: 'arguments wrapped in {"arguments": ...}',
    name: 'files_write_text',
    raw: { arguments: { path: '/a.txt', text: 'x' } },
    args: { path: '/a.txt', text: 'x' },
  },
  {
    label: 'whole call echoed with name and JSON-string arguments',
    name: 'files_write_text',
    raw: { name: 'files_write_text', arguments: '{"path": "/a.txt", "text": "x"}' },
    args: { path: '/a.txt', text: 'x' },
  },
  {
    label: 'number for a string field',
    name: 'sheet_set_cell_value',
    raw: { path: '/b.xlsx', sheet: 2024, cell: 'A1', value: 1 },
    args: { path: '/b.xlsx', sheet: '2024', cell: 'A1', value: 1 },
  },
  {
    label: 'union keeps the string a model sent',
    name: 'sheet_set_cell_value',
    raw: { ...cell, value: '42' },
    args: { ...cell, value: '42' },
  },
  { label: 'empty arguments string', name: 'files_list', raw: '', args: { dir: '/', recursive: false } },
  { label: 'null arguments', name: 'files_list', raw: null, args: { dir: '/', recursive: false } },
  {
    label: 'prose braces before the real JSON',
    name: 'files_write_text',
    raw: 'I use {placeholders} a lot. Call: {"path": "/a.txt", "text": "x"}',
    args: { path: '/a.txt', text: 'x' },
  },
  {
    label: 'smart formatting: newline-separated JSON with CRLF',
    name: 'files_write_text',
    raw: '{\r\n"path": "/a.txt",\r\n"text": "line1\\nline2"\r\n}',
    args: { path: '/a.txt', text: 'line1\nline2' },
  },
  {
    label: 'missing comma between fields',
    name: 'files_write_text',
    raw: '{"path": "/a.txt" "text": "x"}',
    args: { path: '/a.txt', text: 'x' },
  },
  {
    label: 'bare value for a one-field method',
    name: 'sheet_list',
    raw: '/book.xlsx',
    args: { path: '/book.xlsx' },
  },
]

describe('argument repair corpus', () => {
  it('has at least 30 cases', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(30)
  })

  it.each(corpus)('$label', async ({ name, raw, args }) => {
    const result = await invoke(session, name, raw)
    if (!result.ok) throw new Error(`expected success, got: ${result.error}`)
    expect(result.call?.args).toEqual(args)
  })
})

describe('arguments that cannot be repaired', () => {
  it.each([
    ['no JSON at all for a multi-field method', 'files_write_text', 'please write hello to a file'],
    ['an array instead of an object', 'files_write_text', ['/a.txt', 'x']],
    ['a number for a multi-field method', 'files_write_text', 42],
  ])('%s: clear error naming the expected shape', async (_label, name, raw) => {
    const result = await invoke(session, name, raw)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.stage).toBe('arguments')
    expect(result.error).toContain('"path"')
    expect(result.error).toContain('"text"')
  })

  it('says which field, what was expected and what was received', async () => {
    const result = await invoke(session, 'sheet_get_range', {
      path: '/p',
      sheet: 'S',
      range: 'A1',
      limit: 'lots',
    })
    expect(result).toMatchObject({ ok: false, stage: 'arguments', code: 'VALIDATION_FAILED' })
    if (result.ok) return
    expect(result.error).toContain('limit: expected integer, received "lots"')
    expect(result.error).toContain('Parameters: {path: string')
  })

  it('names missing fields with their description and suggests the field for a misspelled key', async () => {
    const result = await invoke(session, 'sheet_set_cell_value', {
      path: '/b.xlsx',
      sheet: 'S',
      cel: 'A1',
      value: 1,
    })
    if (result.ok) throw new Error('expected failure')
    expect(result.error).toContain('cell: missing, expected string (A1 reference.)')
    expect(result.error).toContain('cel (did you mean cell?)')
  })

  it('lists enum options', async () => {
    const result = await invoke(session, 'sheet_add_chart', {
      path: '/p',
      sheet: 'S',
      type: 'donut',
      data_range: 'A1',
    })
    if (result.ok) throw new Error('expected failure')
    expect(result.error).toContain('type: expected one of "column", "bar", "line", "pie", received "donut"')
  })
})
