import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import picomatch from 'picomatch'
import { z } from 'zod'
import { AppError } from '../../shared/errors'
import { type EvalTask, TaskManifest } from './taskSchema'

/** The suite's own version: raised when tasks change in a way that makes old scores incomparable. */
const SuiteFile = z.strictObject({ version: z.string().min(1) })

export interface TaskSet {
  /** `eval/suite.json`'s version. */
  version: string
  /** sha256 (12 hex) of every manifest, so two runs can tell they ran the same tasks. */
  digest: string
  tasks: EvalTask[]
}

/** The repository's `eval/` folder: found by walking up from this module (source or bundled output). */
export function shippedEvalDir(from: string = fileURLToPath(import.meta.url)): string | undefined {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'eval', 'suite.json')))
      return join(dir, 'eval')
    if (dirname(dir) === dir) return undefined
  }
}

function loadError(message: string): AppError {
  return new AppError('VALIDATION_FAILED', message)
}

function readManifest(dir: string, id: string): EvalTask {
  const file = join(dir, 'task.json')
  if (!existsSync(file)) throw loadError(`eval task ${id} has no task.json`)
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw loadError(
      `eval task ${id}: task.json is not JSON (${error instanceof Error ? error.message : error})`,
    )
  }
  const parsed = TaskManifest.safeParse(raw)
  if (!parsed.success)
    throw loadError(`eval task ${id}: ${z.prettifyError(parsed.error).replaceAll('\n', '; ')}`)
  if (parsed.data.id !== id) throw loadError(`eval task folder ${id} holds the task "${parsed.data.id}"`)
  return { ...parsed.data, dir }
}

/**
 * Loads `<evalDir>/tasks/*\/task.json` (validated), optionally only the ids matching `filter`
 * (comma-separated globs). A missing folder, an empty one or a filter that matches nothing is an
 * error: a suite never quietly runs zero tasks.
 */
export function loadTaskSet(evalDir: string | undefined, filter?: string): TaskSet {
  if (!evalDir) throw loadError('the eval task folder was not found (eval/ next to package.json)')
  const tasksDir = join(evalDir, 'tasks')
  if (!existsSync(tasksDir) || !statSync(tasksDir).isDirectory())
    throw loadError(`the eval task folder ${tasksDir} does not exist`)
  const ids = readdirSync(tasksDir)
    .filter((name) => statSync(join(tasksDir, name)).isDirectory())
    .sort()
  if (ids.length === 0) throw loadError(`the eval task folder ${tasksDir} has no tasks`)
  const all = ids.map((id) => readManifest(join(tasksDir, id), id))
  const suiteFile = join(evalDir, 'suite.json')
  const suite = SuiteFile.parse(
    existsSync(suiteFile) ? JSON.parse(readFileSync(suiteFile, 'utf8')) : { version: 'unversioned' },
  )
  const hash = createHash('sha256')
  for (const id of ids) hash.update(readFileSync(join(tasksDir, id, 'task.json')))
  const patterns =
    filter
      ?.split(',')
      .map((p) => p.trim())
      .filter(Boolean) ?? []
  const matches = patterns.length > 0 ? picomatch(patterns) : () => true
  const tasks = all.filter((t) => matches(t.id))
  if (tasks.length === 0) throw loadError(`no eval task matches --tasks ${filter} (tasks: ${ids.join(', ')})`)
  return { version: suite.version, digest: hash.digest('hex').slice(0, 12), tasks }
}
