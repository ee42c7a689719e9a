import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import Module from 'node:module'
import { basename, dirname, join, sep } from 'node:path'
import vm from 'node:vm'

// V8's code cache for the built conversion worker (Node 20 has no compile cache for any module; Node
// 22's `module.enableCompileCache()` covers ES modules only). The worker is built as CommonJS
// (`out/worker/*.cjs`) so its files can be compiled here through `vm.Script` with the bytecode V8 made
// for them in an earlier run. V8 checks that a cache matches the source, its own version and its flags,
// and compiles from source otherwise (`cachedDataRejected`), so a stale or damaged file costs one
// compile and is written again. The cache is written after a conversion, so it also holds the functions
// that conversion compiled lazily (the converters' code, not only the files' top level).

interface LoadedScript {
  script: vm.Script
  cacheFile: string
}

/** `Module.prototype._compile`, which `@types/node` leaves out. */
interface CompilingModule {
  exports: unknown
  _compile(content: string, filename: string): unknown
}

const modulePrototype = (Module as unknown as { prototype: CompilingModule }).prototype
const unwritten: LoadedScript[] = []
let installed = false
const stats = { compiled: 0, fromCache: 0, rejected: 0, written: 0 }

/** Files compiled through the cache in this thread: how many had their bytecode taken, refused, written. */
export function codeCacheStats(): Readonly<typeof stats> {
  return { ...stats }
}

/** The cache of one V8 build and architecture: the desktop app's Electron and the CLI's Node differ. */
export function codeCacheFolder(root: string): string {
  return join(root, `v8-${process.versions.v8}-${process.arch}`)
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file)
  } catch {
    return undefined
  }
}

/**
 * Compiles the CommonJS files under `buildDir` with their cached bytecode from `cacheRoot`; any other
 * file is left to Node. Does nothing when `cacheRoot` is undefined (turned off) or when already done.
 */
export function installCodeCache(cacheRoot: string | undefined, buildDir: string): void {
  if (!cacheRoot || installed) return
  installed = true
  const folder = codeCacheFolder(cacheRoot)
  const prefix = buildDir.endsWith(sep) ? buildDir : buildDir + sep
  const compile = modulePrototype._compile
  modulePrototype._compile = function (this: CompilingModule, content: string, filename: string) {
    if (!filename.startsWith(prefix)) return compile.call(this, content, filename)
    const cacheFile = join(folder, `${basename(filename)}.v8`)
    const cachedData = readCache(cacheFile)
    const script = new vm.Script(Module.wrap(content), {
      filename,
      cachedData,
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    })
    stats.compiled++
    if (cachedData && !script.cachedDataRejected) stats.fromCache++
    else unwritten.push({ script, cacheFile })
    if (cachedData && script.cachedDataRejected) stats.rejected++
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown
    const require = Module.createRequire(filename)
    return wrapper.call(this.exports, this.exports, require, this, filename, dirname(filename))
  }
}

/**
 * Writes the cache of every file compiled without one since the last call (a first run, a new build, a
 * cache V8 refused). Synchronous: a CLI run exits as soon as its last result is in. A folder that cannot
 * be written is given up on quietly: the cache only saves time.
 */
export function writePendingCodeCache(): void {
  for (let loaded = unwritten.shift(); loaded; loaded = unwritten.shift()) {
    try {
      mkdirSync(dirname(loaded.cacheFile), { recursive: true, mode: 0o700 })
      const temporary = `${loaded.cacheFile}.${process.pid}.${Date.now()}.tmp`
      writeFileSync(temporary, loaded.script.createCachedData(), { mode: 0o600 })
      renameSync(temporary, loaded.cacheFile)
      stats.written++
      removeEarlierBuilds(loaded.cacheFile)
    } catch {
      unwritten.length = 0
      return
    }
  }
}

/** A chunk's name is `<name>-<8-character hash>.cjs`: a new build leaves the cache of the last one behind. */
function removeEarlierBuilds(cacheFile: string): void {
  const name = basename(cacheFile)
  const stem = /^(.+)-[\w-]{8}\.cjs\.v8$/.exec(name)?.[1]
  if (!stem) return
  const folder = dirname(cacheFile)
  for (const other of readdirSync(folder)) {
    if (
      other !== name &&
      other.startsWith(`${stem}-`) &&
      /^-[\w-]{8}\.cjs\.v8$/.test(other.slice(stem.length))
    )
      rmSync(join(folder, other), { force: true })
  }
}
