import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  createPluginLoader,
  createToolRegistry,
  createToolSession,
  defineToolset,
  invoke,
  method,
  type PluginLoader,
  type PluginReport,
} from '../../../src/main/tools'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-plugins-')
const loaders: PluginLoader[] = []
afterEach(async () => {
  await Promise.all(loaders.splice(0).map((loader) => loader.close()))
})
afterAll(() => dirs.cleanup())

function esmPlugin(name: string, answer: string): string {
  return `export default function ({ defineToolset, method, z }) {
  return defineToolset({
    name: ${JSON.stringify(name)},
    summary: 'Test plugin ${name}.',
    methods: {
      answer: method({
        description: 'Returns a fixed answer.',
        input: z.object({}),
        output: z.object({ answer: z.string() }),
        risk: 'read',
        run: async () => ({ answer: ${JSON.stringify(answer)} }),
      }),
    },
  })
}
`
}

function cjsPlugin(name: string, answer: string): string {
  return esmPlugin(name, answer).replace('export default function', 'module.exports = function')
}

async function plugin(root: string, folder: string, files: Record<string, string>): Promise<string> {
  const dir = join(root, folder)
  await mkdir(dir, { recursive: true })
  for (const [file, content] of Object.entries(files)) {
    await mkdir(join(dir, file, '..'), { recursive: true })
    await writeFile(join(dir, file), content)
  }
  return dir
}

async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const builtinFiles = defineToolset({
  name: 'files',
  summary: 'Built-in files.',
  methods: {
    list: method({
      description: 'List.',
      input: z.object({}),
      output: z.null(),
      risk: 'read',
      run: () => null,
    }),
  },
})

function setup(pluginRoots: string[], debounceMs = 40) {
  const registry = createToolRegistry([builtinFiles])
  const reports: PluginReport[] = []
  const loader = createPluginLoader({
    registry,
    dirs: pluginRoots,
    debounceMs,
    onReport: (r) => reports.push(r),
  })
  loaders.push(loader)
  return { registry, loader, reports }
}

describe('plugin loading', () => {
  it('loads ESM, CommonJS, package.json main and multi-toolset plugins from every folder', async () => {
    const shipped = await dirs.make()
    const user = await dirs.make()
    await plugin(shipped, 'alpha', { 'index.mjs': esmPlugin('alpha', 'a') })
    await plugin(shipped, 'beta', { 'index.cjs': cjsPlugin('beta', 'b') })
    await plugin(user, 'gamma', {
      'package.json': JSON.stringify({ main: 'lib/entry.js', type: 'commonjs' }),
      'lib/entry.js': cjsPlugin('gamma', 'g'),
    })
    await plugin(user, 'delta', {
      'package.json': JSON.stringify({ type: 'module' }),
      'index.js': `import one from './one.js'\nexport default (api) => [one(api), api.defineToolset({ name: 'epsilon', summary: 'E.', methods: { ping: api.method({ description: 'p', input: api.z.object({}), output: api.z.literal('pong'), risk: 'read', run: () => 'pong' }) } })]\n`,
      'one.js': esmPlugin('delta', 'd'),
    })
    await plugin(user, '.hidden', { 'index.mjs': esmPlugin('hidden', 'h') })
    const { registry, loader } = setup([shipped, user])
    const reports = await loader.load()
    expect(reports.map((r) => [r.status, r.toolsets])).toEqual([
      ['loaded', ['alpha']],
      ['loaded', ['beta']],
      ['loaded', ['delta', 'epsilon']],
      ['loaded', ['gamma']],
    ])
    expect(registry.list().map((t) => t.name)).toEqual([
      'files',
      'alpha',
      'beta',
      'delta',
      'epsilon',
      'gamma',
    ])
    const session = createToolSession({ toolsets: registry })
    expect(await invoke(session, 'beta_answer', {})).toMatchObject({ ok: true, value: { answer: 'b' } })
    expect(await invoke(session, 'gamma.answer', {})).toMatchObject({ ok: true, value: { answer: 'g' } })
    expect(await invoke(session, 'epsilon_ping', {})).toMatchObject({ ok: true, value: 'pong' })
  })

  it('reports broken plugins with file and reason, skips them and keeps the others', async () => {
    const root = await dirs.make()
    await plugin(root, 'good', { 'index.mjs': esmPlugin('good', 'ok') })
    await plugin(root, 'syntax', { 'index.mjs': 'export default (api => {' })
    await plugin(root, 'throws', {
      'index.mjs': 'export default () => { throw new Error("plugin exploded") }',
    })
    await plugin(root, 'garbage', { 'index.mjs': 'export default 42' })
    await plugin(root, 'noexport', { 'index.mjs': 'export const x = 1' })
    await plugin(root, 'notatoolset', { 'index.mjs': 'export default () => ({ name: "fake", methods: {} })' })
    await plugin(root, 'badname', { 'index.mjs': esmPlugin('Bad Name', 'x') })
    await plugin(root, 'empty', { 'README.md': 'no code here' })
    await plugin(root, 'toplevelthrow', { 'index.cjs': 'throw new Error("cannot load")' })
    const { registry, loader } = setup([root])
    const reports = await loader.load()
    const byFolder = Object.fromEntries(reports.map((r) => [r.plugin.slice(root.length + 1), r]))
    expect(byFolder.good?.status).toBe('loaded')
    const reasons: Record<string, string> = {
      syntax: 'could not be loaded',
      throws: 'the plugin function threw: plugin exploded',
      garbage: 'the default export must be a function (api) => Toolset | Toolset[], not number',
      noexport: 'not undefined',
      notatoolset: 'returned an object, not a toolset made with api.defineToolset',
      badname: 'must be lowercase letters',
      empty: 'no index.js, index.mjs, index.cjs or package.json "main" found',
      toplevelthrow: 'could not be loaded: cannot load',
    }
    for (const [folder, reason] of Object.entries(reasons)) {
      expect(byFolder[folder]?.status, folder).toBe('failed')
      expect(byFolder[folder]?.error, folder).toContain(reason)
    }
    expect(byFolder.syntax?.file).toBe(join(root, 'syntax', 'index.mjs'))
    expect(registry.list().map((t) => t.name)).toEqual(['files', 'good'])
  })

  it('skips a toolset whose name the host (or an earlier plugin) already provides, with a notice', async () => {
    const shipped = await dirs.make()
    const user = await dirs.make()
    await plugin(shipped, 'mine', { 'index.mjs': esmPlugin('mine', 'shipped') })
    await plugin(user, 'files', { 'index.mjs': esmPlugin('files', 'evil') })
    await plugin(user, 'mine', { 'index.mjs': esmPlugin('mine', 'user') })
    const { registry, loader } = setup([shipped, user])
    const reports = await loader.load()
    expect(reports[1]).toMatchObject({
      status: 'loaded',
      toolsets: [],
      skipped: [{ name: 'files', reason: 'toolset "files" is already provided by builtin' }],
    })
    expect(reports[2]?.skipped[0]?.reason).toContain(`already provided by plugin ${join(shipped, 'mine')}`)
    const session = createToolSession({ toolsets: registry })
    expect(await invoke(session, 'mine_answer', {})).toMatchObject({ value: { answer: 'shipped' } })
    expect(await invoke(session, 'files_list', {})).toMatchObject({ ok: true, value: null })
  })
})

describe('plugin hot reload (chokidar, short debounce)', () => {
  it('hot-adds a new plugin, reloads a changed one, drops a broken or removed one', async () => {
    const root = await dirs.make()
    const { registry, loader, reports } = setup([root])
    await loader.load()
    await loader.watch()
    const session = createToolSession({ toolsets: registry })

    const dir = await plugin(root, 'hot', { 'index.mjs': esmPlugin('hot', 'v1') })
    await waitFor(() => registry.get('hot') !== undefined, 'the new plugin to load')
    expect(await invoke(session, 'hot_answer', {})).toMatchObject({ value: { answer: 'v1' } })

    await writeFile(join(dir, 'index.mjs'), esmPlugin('hot', 'v2'))
    await waitFor(
      async () =>
        (await invoke(session, 'hot_answer', {})).ok &&
        reports.filter((r) => r.status === 'loaded').length >= 2,
      'the reload',
    )
    expect(await invoke(session, 'hot_answer', {})).toMatchObject({ value: { answer: 'v2' } })

    await writeFile(join(dir, 'index.mjs'), 'export default () => { throw new Error("mid-edit") }')
    await waitFor(() => reports.some((r) => r.status === 'failed'), 'the broken report')
    expect(registry.get('hot')).toBeUndefined()
    expect(reports.at(-1)).toMatchObject({ status: 'failed', error: 'the plugin function threw: mid-edit' })
    expect(await invoke(session, 'hot_answer', {})).toMatchObject({ ok: false, stage: 'resolve' })

    await writeFile(join(dir, 'index.mjs'), esmPlugin('hot', 'v3'))
    await waitFor(() => registry.get('hot') !== undefined, 'the fixed plugin')
    expect(await invoke(session, 'hot_answer', {})).toMatchObject({ value: { answer: 'v3' } })

    await rm(dir, { recursive: true, force: true })
    await waitFor(() => registry.get('hot') === undefined, 'the removal')
    expect(reports.at(-1)?.status).toBe('removed')
  })

  it('reloads CommonJS plugins too (require cache cleared)', async () => {
    const root = await dirs.make()
    const { registry, loader } = setup([root])
    await loader.watch()
    const dir = await plugin(root, 'cjs', { 'index.cjs': cjsPlugin('cjs', 'one') })
    await waitFor(() => registry.get('cjs') !== undefined, 'the CommonJS plugin')
    const session = createToolSession({ toolsets: registry })
    await writeFile(join(dir, 'index.cjs'), cjsPlugin('cjs', 'two'))
    await waitFor(async () => {
      const result = await invoke(session, 'cjs_answer', {})
      return result.ok && (result.value as { answer: string }).answer === 'two'
    }, 'the CommonJS reload')
    expect(await invoke(session, 'cjs_answer', {})).toMatchObject({ ok: true, value: { answer: 'two' } })
  })

  it('debounces a burst of changes into one reload', async () => {
    const root = await dirs.make()
    const { loader, reports } = setup([root], 300)
    await loader.watch()
    const dir = await plugin(root, 'burst', { 'index.mjs': esmPlugin('burst', '0') })
    for (let i = 1; i <= 5; i++) await writeFile(join(dir, 'index.mjs'), esmPlugin('burst', String(i)))
    await waitFor(() => reports.length > 0, 'the debounced load')
    await loader.idle()
    expect(reports).toHaveLength(1)
  })

  it('creates a missing user tools folder when watching', async () => {
    const base = await dirs.make()
    const { registry, loader } = setup([join(base, 'data', 'tools')])
    await loader.watch()
    await plugin(join(base, 'data', 'tools'), 'late', { 'index.mjs': esmPlugin('late', 'x') })
    await waitFor(() => registry.get('late') !== undefined, 'a plugin in the created folder')
    expect(registry.get('late')?.name).toBe('late')
  })
})
