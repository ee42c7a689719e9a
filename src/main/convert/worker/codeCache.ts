import { createHash, randomUUID } from 'node:crypto'
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import Module from 'node:module'
import { basename, dirname, join, sep } from 'node:path'
import vm from 'node:vm'

// V8's code cache for the built conversion worker. Node 20 has no compile cache (Node 22's
// `module.enableCompileCache()` would do this, for CommonJS too), so the worker is built as CommonJS
// (`out/worker/*.cjs`) and its files are compiled here through `vm.Script` with the bytecode V8 made for
// them in an earlier run. The cache is written after a conversion, so it also holds the functions that
// conversion compiled lazily (the converters' code, not only the files' top level).
//
// V8 checks a cache's header, its own version and flags, and the source's length only: bytecode made for
// another script of the same length, or a damaged payload, is run as it is (a crash, or someone else's
// code). So each file carries its own header, the SHA-256 of the source it was made from and of the
// payload, and is used only when both match; and only from a folder that the user alone can write.

interface LoadedScript {
  script: vm.Script
  cacheFile: string
  sourceHash: Buffer
}

/** `Module.prototype._compile`, which `@types/node` leaves out. */
interface CompilingModule {
  exports: unknown
  _compile(content: string, filename: string): unknown
}

const MAGIC = Buffer.from('BUREAUC1')
const HEADER_BYTES = MAGIC.length + 64
/** Build folders (one per build of the worker) kept beside the current one, the most recently used. */
const KEEP_BUILDS = 3

const modulePrototype = (Module as unknown as { prototype: CompilingModule }).prototype
const unwritten: LoadedScript[] = []
let installed = false
let folder: string | undefined
const stats = { compiled: 0, fromCache: 0, rejected: 0, written: 0 }

/** Files compiled through the cache in this thread: how many had their bytecode taken, refused, written. */
export function codeCacheStats(): Readonly<typeof stats> {
  return { ...stats }
}

/** One folder per V8 build and architecture (Electron's and the CLI's Node differ), then per worker build. */
export function codeCacheFolder(root: string, buildDir: string): string {
  const chunks = readdirSync(buildDir)
    .filter((name) => name.endsWith('.cjs'))
    .sort()
  const build = createHash('sha256').update(chunks.join('\n')).digest('hex').slice(0, 16)
  return join(root, `v8-${process.versions.v8}-${process.arch}`, build)
}

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest()

/** The payload of a cache file made from exactly this source, or undefined. */
function readCache(file: string, sourceHash: Buffer): Buffer | undefined {
  let bytes: Buffer
  try {
    bytes = readFileSync(file)
  } catch {
    return undefined
  }
  if (bytes.length <= HEADER_BYTES || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined
  const payload = bytes.subarray(HEADER_BYTES)
  const ok =
    bytes.subarray(MAGIC.length, MAGIC.length + 32).equals(sourceHash) &&
    bytes.subarray(MAGIC.length + 32, HEADER_BYTES).equals(sha256(payload))
  return ok ? payload : undefined
}

/** A real folder (no link) that only this user can write; Windows has no such modes, its profile does. */
function privateFolder(path: string): boolean {
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 })
    const info = lstatSync(path)
    if (!info.isDirectory()) return false
    if (process.platform === 'win32') return true
    return info.uid === process.getuid?.() && (info.mode & 0o022) === 0
  } catch {
    return false
  }
}

/**
 * Compiles the CommonJS files under `buildDir` with their cached bytecode from `cacheRoot`; any other
 * file is left to Node. Does nothing when `cacheRoot` is undefined (turned off), when its folder is not
 * the user's own, or when already done.
 */
export function installCodeCache(cacheRoot: string | undefined, buildDir: string): void {
  if (!cacheRoot || installed) return
  installed = true
  const chosen = codeCacheFolder(cacheRoot, buildDir)
  if (!privateFolder(chosen)) return
  folder = chosen
  const prefix = buildDir.endsWith(sep) ? buildDir : buildDir + sep
  const compile = modulePrototype._compile
  modulePrototype._compile = function (this: CompilingModule, content: string, filename: string) {
    if (!filename.startsWith(prefix)) return compile.call(this, content, filename)
    return compileCached(this, content.replace(/^#!.*/, ''), filename, chosen)
  }
}

function compileCached(module: CompilingModule, content: string, filename: string, into: string) {
  const sourceHash = sha256(content)
  const cacheFile = join(into, `${basename(filename)}.v8`)
  const cachedData = readCache(cacheFile, sourceHash)
  // No `importModuleDynamically`: Node 20 drops it from a script compiled with cached data, so the
  // worker build has no `import()` (electron.vite.worker.config.ts).
  const script = new vm.Script(Module.wrap(content), { filename, cachedData })
  stats.compiled++
  if (cachedData && !script.cachedDataRejected) stats.fromCache++
  else unwritten.push({ script, cacheFile, sourceHash })
  if (cachedData && script.cachedDataRejected) stats.rejected++
  const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown
  const require = Module.createRequire(filename)
  return wrapper.call(module.exports, module.exports, require, module, filename, dirname(filename))
}

/**
 * Writes the cache of every file compiled without one since the last call (a first run, a new build, a
 * cache refused). Synchronous: a CLI run exits as soon as its last result is in. A file that cannot be
 * written is skipped: the cache only saves time.
 */
export function writePendingCodeCache(): void {
  const current = folder
  if (unwritten.length === 0 || !current) return
  for (let loaded = unwritten.shift(); loaded; loaded = unwritten.shift()) {
    // A name nobody can guess, created new (`wx`): never a file or link someone put there.
    const temporary = `${loaded.cacheFile}.${randomUUID()}.tmp`
    try {
      const payload = loaded.script.createCachedData()
      writeFileSync(temporary, Buffer.concat([MAGIC, loaded.sourceHash, sha256(payload), payload]), {
        mode: 0o600,
        flag: 'wx',
      })
      renameSync(temporary, loaded.cacheFile)
      stats.written++
    } catch {
      rmSync(temporary, { force: true })
    }
  }
  pruneBuilds(current)
}

/** Whether a file compiled through the cache still has its cache to write (after its first conversion). */
export function hasPendingCodeCache(): boolean {
  return unwritten.length > 0 && folder !== undefined
}

/** Marks this build's folder as used and removes the least recently used others beyond KEEP_BUILDS. */
function pruneBuilds(current: string): void {
  try {
    const now = new Date()
    utimesSync(current, now, now)
    const parent = dirname(current)
    const others = readdirSync(parent)
      .map((name) => join(parent, name))
      .filter((path) => path !== current)
      .map((path) => ({ path, used: lstatSync(path).mtimeMs }))
      .sort((a, b) => b.used - a.used)
    for (const old of others.slice(KEEP_BUILDS)) rmSync(old.path, { recursive: true, force: true })
  } catch {
    // Pruning is housekeeping; another process may be doing the same.
  }
}
