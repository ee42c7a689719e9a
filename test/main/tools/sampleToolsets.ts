import { z } from 'zod'
import { defineToolset, method, sessionState } from '../../../src/main/tools'
import { AppError } from '../../../src/shared/errors'

/** A toolset shaped like the real ones: required/optional fields, defaults, enums, arrays, unions, objects. */
export const sheet = defineToolset({
  name: 'sheet',
  summary: 'A fake spreadsheet toolset for tests.',
  description: 'Keeps cells in memory. Used to test the catalog, the terminal and the invoke pipeline.',
  methods: {
    setCellValue: method({
      description: 'Writes one cell and returns it.',
      input: z.object({
        path: z.string().describe('Agent path of the workbook.'),
        sheet: z.string().describe('Sheet name.'),
        cell: z
          .string()
          .regex(/^[A-Z]+[0-9]+$/)
          .describe('A1 reference.'),
        value: z.union([z.string(), z.number(), z.boolean(), z.null()]).describe('The value.'),
      }),
      output: z.object({
        sheet: z.string(),
        cell: z.string(),
        value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
      }),
      examples: [{ path: '/book.xlsx', sheet: 'Sales', cell: 'A1', value: 5 }],
      risk: 'write',
      run: async ({ sheet, cell, value }) => ({ sheet, cell, value }),
    }),
    getRange: method({
      description: 'Reads a range. Paged.',
      input: z.object({
        path: z.string(),
        sheet: z.string(),
        range: z.string().describe('A1 range like A1:C10.'),
        detailed: z.boolean().default(false).describe('Return the sparse receipt shape.'),
        limit: z.number().int().min(1).max(1000).default(100),
      }),
      output: z.object({ range: z.string(), detailed: z.boolean(), limit: z.number() }),
      risk: 'read',
      run: async ({ range, detailed, limit }) => ({ range, detailed, limit }),
    }),
    appendRows: method({
      description: 'Appends rows (a 2-D array).',
      input: z.object({
        path: z.string(),
        sheet: z.string(),
        rows: z.array(z.array(z.union([z.string(), z.number(), z.boolean(), z.null()]))),
      }),
      output: z.object({ appended: z.number() }),
      risk: 'write',
      run: async ({ rows }) => ({ appended: rows.length }),
    }),
    addChart: method({
      description: 'Adds a chart.',
      input: z.object({
        path: z.string(),
        sheet: z.string(),
        type: z.enum(['column', 'bar', 'line', 'pie']),
        data_range: z.string(),
        title: z.string().optional(),
        anchor: z.object({ cell: z.string(), width: z.number().default(480) }).optional(),
      }),
      output: z.object({
        type: z.string(),
        data_range: z.string(),
        title: z.string().optional(),
        anchor: z.unknown(),
      }),
      risk: 'write',
      run: async ({ type, data_range, title, anchor }) => ({ type, data_range, title, anchor }),
    }),
    tag: method({
      description: 'Tags cells.',
      input: z.object({
        tags: z.array(z.string()).describe('Tag names.'),
        weights: z.array(z.number()).optional(),
        overwrite: z.boolean().optional(),
      }),
      output: z.object({
        tags: z.array(z.string()),
        weights: z.array(z.number()).optional(),
        overwrite: z.boolean().optional(),
      }),
      risk: 'write',
      run: async (args) => args,
    }),
    list: method({
      description: 'Lists sheets.',
      input: z.object({ path: z.string() }),
      output: z.object({ sheets: z.array(z.string()) }),
      risk: 'read',
      run: async () => ({ sheets: ['Sheet1'] }),
    }),
  },
})

const counter = sessionState(
  'notes.counter',
  () => ({ calls: 0 }),
  (value) => {
    disposed.push(value.calls)
  },
)
export const disposed: number[] = []

/** Stateful, failing and misbehaving methods. */
export const notes = defineToolset({
  name: 'notes',
  summary: 'Fake notes with per-session state.',
  methods: {
    count: method({
      description: 'Counts calls in this session.',
      input: z.object({}),
      output: z.object({ calls: z.number() }),
      risk: 'read',
      run: async (_args, ctx) => {
        const state = counter.get(ctx)
        state.calls++
        return { calls: state.calls }
      },
    }),
    fail: method({
      description: 'Throws an AppError.',
      input: z.object({ reason: z.string().default('nope') }),
      output: z.object({}),
      risk: 'read',
      run: async ({ reason }) => {
        throw new AppError('NOT_FOUND', `Note "${reason}" not found; notes: a, b`)
      },
    }),
    crash: method({
      description: 'Throws a plain error with a host path and a stack.',
      input: z.object({}),
      output: z.object({}),
      risk: 'read',
      run: async () => {
        throw new Error(
          "ENOENT: no such file or directory, open '/home/someone/secret/notes.txt'\n    at Object.openSync (node:fs:1)",
        )
      },
    }),
    throwString: method({
      description: 'Throws a string.',
      input: z.object({}),
      output: z.object({}),
      risk: 'read',
      run: async () => {
        throw 'a bare string'
      },
    }),
    badOutput: method({
      description: 'Returns the wrong shape.',
      input: z.object({}),
      output: z.object({ total: z.number() }),
      risk: 'read',
      run: async () => ({ total: 'many' }) as unknown as { total: number },
    }),
    slow: method({
      description: 'Waits until aborted.',
      input: z.object({}),
      output: z.object({}),
      risk: 'read',
      run: (_args, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.progress({ message: 'waiting', fraction: 0.5 })
          ctx.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true })
        }),
    }),
    needsWorkspace: method({
      description: 'Touches the workspace.',
      input: z.object({ path: z.string() }),
      output: z.object({ host: z.string() }),
      risk: 'read',
      run: async ({ path }, ctx) => ({ host: await ctx.workspace.resolve(path) }),
    }),
    noop: method({
      description: 'Does nothing.',
      input: z.object({}),
      output: z.object({}),
      risk: 'read',
      run: () => ({}),
    }),
  },
})

/** Same method name (`list`) as `sheet.list`, to test ambiguity. */
export const files = defineToolset({
  name: 'files',
  summary: 'Fake files.',
  methods: {
    list: method({
      description: 'Lists a folder.',
      input: z.object({ dir: z.string().default('/'), recursive: z.boolean().default(false) }),
      output: z.object({ dir: z.string(), recursive: z.boolean() }),
      risk: 'read',
      run: async (args) => args,
    }),
    writeText: method({
      description: 'Writes a text file.',
      input: z.object({ path: z.string(), text: z.string() }),
      output: z.object({ path: z.string(), bytes: z.number() }),
      risk: 'write',
      run: async ({ path, text }) => ({ path, bytes: Buffer.byteLength(text) }),
    }),
  },
})
