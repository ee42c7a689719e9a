import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import picomatch from 'picomatch'
import { z } from 'zod'
import { AppError } from '../../../shared/errors'
import type { RunMode } from '../results'
import type { TaskSet } from '../suite'
import type { Difficulty, EvalTask, TaskMessage } from '../taskSchema'

type TaskToolset = EvalTask['toolsets'][number]

import { CannotPassFile, SolutionsFile, Subtask } from './schema'
import { translateEvaluation } from './translate'

/** The paper's step budget. */
export const OFFICEBENCH_STEP_BUDGET = 50

const DIFFICULTY: Record<number, Difficulty> = { 1: 'easy', 2: 'medium', 3: 'hard' }

function loadError(message: string): AppError {
  return new AppError('VALIDATION_FAILED', message)
}

/** True when `dir` is an OfficeBench data folder (it has `tasks/<n>-<id>/subtasks/`). */
export function isOfficeBenchDir(dir: string): boolean {
  const tasks = join(dir, 'tasks')
  if (!existsSync(tasks) || !statSync(tasks).isDirectory()) return false
  return readdirSync(tasks).some((name) => /^\d-\d+$/.test(name) && existsSync(join(tasks, name, 'subtasks')))
}

/**
 * Where `--suite officebench` looks: BUREAU_OFFICEBENCH_DIR, else `officebench/` in BUREAU_THIRD_PARTY_DIR,
 * else `../shared/officebench` beside the checkout (the repository's parent folder).
 */
export function defaultOfficeBenchDir(repoRoot: string | undefined, env: NodeJS.ProcessEnv): string {
  if (env.BUREAU_OFFICEBENCH_DIR) return resolve(env.BUREAU_OFFICEBENCH_DIR)
  if (env.BUREAU_THIRD_PARTY_DIR) {
    const base = env.BUREAU_THIRD_PARTY_DIR
    return join(isAbsolute(base) ? base : resolve(repoRoot ?? '.', base), 'officebench')
  }
  return resolve(repoRoot ?? '.', '..', 'shared', 'officebench')
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => statSync(join(dir, p)).isFile())
    .map((p) => p.split(sep).join('/'))
    .sort()
}

function readJson<T>(file: string, schema: z.ZodType<T>, what: string): T {
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw loadError(`${what} is not JSON (${error instanceof Error ? error.message : error})`)
  }
  const parsed = schema.safeParse(raw)
  if (!parsed.success) throw loadError(`${what}: ${z.prettifyError(parsed.error).replaceAll('\n', '; ')}`)
  return parsed.data
}

/** The start state of one task folder, read into memory: workspace files, mailbox messages, calendars. */
interface Testbed {
  files: Map<string, Uint8Array>
  mail: { person: string | undefined; bytes: Uint8Array }[]
}

function readTestbed(taskDir: string): Testbed {
  const testbed = join(taskDir, 'testbed')
  const files = new Map<string, Uint8Array>()
  const mail: Testbed['mail'] = []
  for (const rel of filesUnder(testbed)) {
    const bytes = new Uint8Array(readFileSync(join(testbed, rel)))
    const [top, ...rest] = rel.split('/')
    // emails/<Person>/*.eml: that person's mail; a message straight under emails/ goes to the user's INBOX.
    if (top === 'emails') mail.push({ person: rest.length > 1 ? rest[0] : undefined, bytes })
    else files.set(`/${rel}`, bytes)
  }
  return { files, mail }
}

function preamble(s: Subtask): string {
  return [
    `Today is ${s.weekday}, ${s.date}, ${s.time}. You are working for ${s.username}.`,
    // OfficeBench's checks read event times as UTC (`DTSTART:20240531T130000Z`).
    'Times are in UTC (give calendar events the time zone UTC).',
    `${s.username}'s files are in /data; calendars are .ics files in /calendar, one per person (e.g. /calendar/${s.username}.ics);`,
    `the e-mail account is ${s.username}'s (${s.username.toLowerCase()}@example.com), and everyone else's address is <name>@example.com.`,
  ].join(' ')
}

function toolsetsOf(task: EvalTask): TaskToolset[] {
  const out = new Set<TaskToolset>()
  for (const c of task.checks) {
    if (c.type === 'keywords' && c.source.kind === 'mail') out.add('email')
    else if (c.type === 'mail') out.add('email')
    else if (['sheetText', 'sameSheet', 'sheetDiff'].includes(c.type)) out.add('spreadsheet')
    else if (c.type === 'keywords' && c.source.kind === 'file')
      out.add(c.source.format === 'xlsx' ? 'spreadsheet' : c.source.format === 'text' ? 'files' : 'documents')
    else out.add('files')
  }
  return [...out]
}

export interface OfficeBenchSet extends TaskSet {
  /** Subtasks left out of a replay, with the reason (no solution written, or checks that cannot pass). */
  omitted: { id: string; reason: string }[]
}

export interface LoadOfficeBenchOptions {
  /** Comma-separated globs over the ids (`ob-2-14-0`, `ob-1-*`). */
  filter?: string | undefined
  /** The project's solutions (`eval/officebench/`): attached as reference and wrong calls. */
  solutionsDir?: string | undefined
  mode: RunMode
}

/**
 * Reads OfficeBench's `tasks/<apps>-<id>/subtasks/<n>.json` and each folder's testbed into memory, as eval
 * tasks `ob-<folder>-<n>`. A replay keeps only the subtasks with a solution of its kind whose checks can pass.
 */
export function loadOfficeBench(dir: string, options: LoadOfficeBenchOptions): OfficeBenchSet {
  if (!isOfficeBenchDir(dir))
    throw loadError(
      `${dir} is not an OfficeBench folder (it needs tasks/<apps>-<id>/subtasks/<n>.json; get the data from https://github.com/zlwang-cs/OfficeBench)`,
    )
  const tasksDir = join(dir, 'tasks')
  const folders = readdirSync(tasksDir)
    .filter((name) => /^\d-\d+$/.test(name))
    .sort((a, b) => {
      const [x, y] = [a.split('-').map(Number), b.split('-').map(Number)]
      return (x[0] ?? 0) - (y[0] ?? 0) || (x[1] ?? 0) - (y[1] ?? 0)
    })
  const patterns = (options.filter ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
  const matches = patterns.length > 0 ? picomatch(patterns) : () => true
  const cannotPassFile = options.solutionsDir ? join(options.solutionsDir, 'cannot-pass.json') : undefined
  const cannotPassList =
    cannotPassFile && existsSync(cannotPassFile)
      ? readJson(cannotPassFile, CannotPassFile, 'eval/officebench/cannot-pass.json')
      : {}
  const hash = createHash('sha256')
  const tasks: EvalTask[] = []
  const omitted: OfficeBenchSet['omitted'] = []
  const all: string[] = []
  for (const folder of folders) {
    const taskDir = join(tasksDir, folder)
    const subtaskFiles = filesUnder(join(taskDir, 'subtasks'))
      .filter((f) => /^\d+\.json$/.test(f))
      .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10))
    const solutionsPath = options.solutionsDir ? join(options.solutionsDir, `${folder}.json`) : undefined
    const solutions =
      solutionsPath && existsSync(solutionsPath)
        ? readJson(solutionsPath, SolutionsFile, `eval/officebench/${folder}.json`).subtasks
        : {}
    let testbed: Testbed | undefined
    for (const file of subtaskFiles) {
      const n = file.replace(/\.json$/, '')
      const id = `ob-${folder}-${n}`
      const path = join(taskDir, 'subtasks', file)
      hash.update(readFileSync(path))
      all.push(id)
      if (!matches(id)) continue
      const subtask = readJson(path, Subtask, relative(dir, path))
      const apps = Number(folder.split('-')[0])
      const translation = translateEvaluation({ taskDir, username: subtask.username }, subtask.evaluation)
      const cannotPass = translation.cannotPass ?? cannotPassList[id]
      const solution = solutions[n]
      if (options.mode !== 'agent') {
        const calls = options.mode === 'reference' ? solution?.reference : solution?.wrong?.calls
        if (cannotPass) {
          omitted.push({ id, reason: `its checks cannot pass: ${cannotPass}` })
          continue
        }
        if (!calls) {
          omitted.push({ id, reason: `no ${options.mode} solution written` })
          continue
        }
      }
      testbed ??= readTestbed(taskDir)
      const user = subtask.username.toLowerCase()
      // Every subtask has a mailbox (a Dovecot account), as every OfficeBench task has its e-mail app:
      // a task may ask to mail a result even when its checks read no mail.
      const mail: TaskMessage[] = testbed.mail.map((m) => ({
        folder: m.person === undefined || m.person.toLowerCase() === user ? 'INBOX' : m.person,
        bytes: m.bytes,
      }))
      const task: EvalTask = {
        id,
        title: subtask.task,
        kind: `officebench.apps-${apps}`,
        toolsets: ['files'],
        difficulty: DIFFICULTY[apps] ?? 'hard',
        stepBudget: OFFICEBENCH_STEP_BUDGET,
        prompt: `${preamble(subtask)}\n\n${subtask.task}`,
        attachments: [],
        workspace: {},
        mailbox: [],
        mcp: [],
        setup: [],
        reference: solution?.reference ?? [],
        wrong: solution?.wrong ?? { mistake: 'none written', calls: [] },
        checks: translation.checks,
        dir: taskDir,
        files: testbed.files,
        mail,
        mailAddress: `${user}@example.com`,
        apps,
        ...(cannotPass ? { cannotPass } : {}),
      }
      task.toolsets = toolsetsOf(task)
      tasks.push(task)
    }
  }
  if (tasks.length === 0)
    throw loadError(
      all.some((id) => matches(id))
        ? `no OfficeBench subtask to run: ${omitted.length} left out (${omitted[0]?.id}: ${omitted[0]?.reason}${omitted.length > 1 ? ', …' : ''})`
        : `no OfficeBench subtask matches --tasks ${options.filter} (ids like ob-1-1-0, ob-2-*)`,
    )
  return { version: 'officebench-2024-07-25', digest: hash.digest('hex').slice(0, 12), tasks, omitted }
}
