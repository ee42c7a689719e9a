import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, extname, join, resolve, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import { isToolset } from '../defineToolset'
import type { Toolset } from '../types'
import { type PluginApi, pluginApi } from './pluginApi'

export type PluginLoadResult =
  | { ok: true; file: string; toolsets: Toolset[] }
  | { ok: false; file: string; error: string }

const INDEX_FILES = ['index.js', 'index.mjs', 'index.cjs']

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'))
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/** The plugin's entry file: `package.json` "main", else index.js / index.mjs / index.cjs. */
export function pluginEntry(folder: string): string | undefined {
  const manifest = readJson(join(folder, 'package.json'))
  if (typeof manifest?.main === 'string') {
    const main = resolve(folder, manifest.main)
    if (existsSync(main)) return main
  }
  return INDEX_FILES.map((name) => join(folder, name)).find((file) => existsSync(file))
}

/** ESM or CommonJS, as Node decides: by extension, else by the nearest package.json "type". */
function isEsm(file: string): boolean {
  const ext = extname(file)
  if (ext === '.mjs') return true
  if (ext === '.cjs') return false
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const manifest = readJson(join(dir, 'package.json'))
    if (manifest) return manifest.type === 'module'
    if (dirname(dir) === dir) return false
  }
}

async function importFresh(file: string, version: number): Promise<unknown> {
  if (isEsm(file)) {
    // The query makes Node load the changed entry file again on reload.
    const module = (await import(/* @vite-ignore */ `${pathToFileURL(file).href}?v=${version}`)) as {
      default?: unknown
    }
    return module.default
  }
  const require = createRequire(file)
  const folder = dirname(file) + sep
  for (const key of Object.keys(require.cache)) if (key.startsWith(folder)) delete require.cache[key]
  const module = require(file) as { default?: unknown; __esModule?: boolean }
  return module?.__esModule || (module && typeof module === 'object' && 'default' in module)
    ? module.default
    : module
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : typeof value
}

/** Loads one plugin folder and calls its factory. Never throws: failures come back with the reason. */
export async function loadPlugin(
  folder: string,
  version = 0,
  api: PluginApi = pluginApi,
): Promise<PluginLoadResult> {
  const file = pluginEntry(folder)
  if (!file)
    return {
      ok: false,
      file: folder,
      error: 'no index.js, index.mjs, index.cjs or package.json "main" found',
    }
  let factory: unknown
  try {
    factory = await importFresh(file, version)
  } catch (error) {
    return {
      ok: false,
      file,
      error: `could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
    }
  }
  if (typeof factory !== 'function') {
    return {
      ok: false,
      file,
      error: `the default export must be a function (api) => Toolset | Toolset[], not ${kindOf(factory)}`,
    }
  }
  let produced: unknown
  try {
    produced = await factory(api)
  } catch (error) {
    return {
      ok: false,
      file,
      error: `the plugin function threw: ${error instanceof Error ? error.message : String(error)}`,
    }
  }
  const list = Array.isArray(produced) ? produced : [produced]
  if (list.length === 0) return { ok: false, file, error: 'the plugin function returned no toolsets' }
  const bad = list.findIndex((item) => !isToolset(item))
  if (bad >= 0) {
    return {
      ok: false,
      file,
      error: `the plugin function returned ${kindOf(list[bad])}${list.length > 1 ? ` at position ${bad + 1}` : ''}, not a toolset made with api.defineToolset`,
    }
  }
  return { ok: true, file, toolsets: list as Toolset[] }
}
