import { existsSync } from 'node:fs'
import { extname, join, relative, resolve, sep } from 'node:path'
import type { Check } from '../checks'
import { formatOfName } from '../checks'
import type { Evaluation } from './schema'

/** What a subtask's evaluation becomes: Bureau checks, or why the subtask's own checks can never pass. */
export interface Translation {
  checks: Check[]
  cannotPass?: string
}

export interface TranslateContext {
  /** tasks/<folder> on disk. */
  taskDir: string
  /** The task's user. */
  username: string
}

/** OfficeBench's file argument, relative to the testbed ("./data/a.xlsx"), as a workspace agent path. */
export function agentPathOf(file: string): string {
  return `/${file.replace(/^(\.\/)+/, '').replace(/^\/+/, '')}`
}

/**
 * Where a path OfficeBench resolves against its per-run testbed copy (`tasks/<id>/outputs/<n>/<run>/testbed`)
 * lies: the task's `reference/` folder, the start state (`cache/<n>/testbed/...` is the testbed before
 * the run) or the run's own testbed (an agent path).
 */
function locate(ctx: TranslateContext, file: string): { disk: string } | { agent: string } {
  const fakeTestbed = join(ctx.taskDir, 'outputs', '0', 'run', 'testbed')
  const full = resolve(fakeTestbed, file)
  const inside = relative(fakeTestbed, full)
  if (!inside.startsWith('..')) return { agent: agentPathOf(inside.split(sep).join('/')) }
  const fromTask = relative(ctx.taskDir, full).split(sep)
  if (fromTask[0] === 'cache' && fromTask[2] === 'testbed')
    return { disk: join(ctx.taskDir, 'testbed', ...fromTask.slice(3)) }
  return { disk: full }
}

const FORMATS: Record<string, 'xlsx' | 'docx' | 'pdf' | 'text'> = {
  xlsx: 'xlsx',
  docx: 'docx',
  doc: 'docx',
  pdf: 'pdf',
  txt: 'text',
  ics: 'text',
}

/** The file extensions each reader of OfficeBench opens without failing. */
const READS: Record<'xlsx' | 'docx' | 'pdf', string[]> = {
  xlsx: ['.xlsx', '.xlsm'],
  docx: ['.docx'],
  pdf: ['.pdf'],
}

/** An evaluation no run can pass: its own class so `translateEvaluation` collects it as a reason. */
class CannotPass extends Error {}

function cannot(reason: string): never {
  throw new CannotPass(reason)
}

function str(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '') cannot(`the check names no ${what}`)
  return value
}

function keywordsOf(args: Record<string, unknown>): string[] {
  const list = args.keywords
  if (!Array.isArray(list) || list.length === 0 || !list.every((k) => typeof k === 'string'))
    cannot('the check lists no keywords')
  return list
}

const isOwn = (ctx: TranslateContext, person: string) => person.toLowerCase() === ctx.username.toLowerCase()

function contain(ctx: TranslateContext, args: Record<string, unknown>, absent: boolean): Check {
  const docType = str(args.doc_type, 'document type')
  const keywords = keywordsOf(args)
  if (docType === 'email') {
    const person = str(args.username, 'user')
    return { type: 'keywords', source: { kind: 'mail', person, own: isOwn(ctx, person) }, keywords, absent }
  }
  const format = FORMATS[docType]
  if (!format) cannot(`the check reads an unknown document type "${docType}"`)
  const file = str(args.file, 'file')
  const where = locate(ctx, file)
  if (!('agent' in where)) cannot(`the check reads ${file}, outside the task's files`)
  const ext = extname(file).toLowerCase()
  if (format !== 'text' && !READS[format].includes(ext))
    cannot(`the check reads ${file} as ${docType}, a reader that fails on a ${ext || 'extension-less'} file`)
  return { type: 'keywords', source: { kind: 'file', path: where.agent, format }, keywords, absent }
}

function cells(args: Record<string, unknown>, comparator: boolean): Check {
  const file = str(args.file, 'file (its "file" is not among its arguments)')
  const matches = Array.isArray(args.matches) ? (args.matches as Record<string, unknown>[]) : []
  if (matches.length === 0) cannot('the check lists no cells')
  return {
    type: 'sheetText',
    path: agentPathOf(file),
    matches: matches.map((m) => {
      const row = String(m.row)
      const col = String(m.col)
      if (!comparator) return { row, col, value: String(m.value) }
      // The one comparator in the data: `lambda x: x in ['1', '2', ...]`.
      const list = /^lambda x: x in \[(.*)\]$/.exec(String(m.comparator ?? '').trim())?.[1]
      if (list === undefined) cannot(`the comparator ${String(m.comparator)} is not one the harness reads`)
      return { row, col, oneOf: [...list.matchAll(/'([^']*)'|"([^"]*)"/g)].map((x) => x[1] ?? x[2] ?? '') }
    }),
  }
}

function exactMatch(ctx: TranslateContext, args: Record<string, unknown>): Check {
  const docType = str(args.doc_type, 'document type')
  const result = str(args.result_file, 'result file')
  const expectedFile = str(args.expected_file, 'expected file')
  if (docType !== 'xlsx')
    cannot(
      `the check compares ${docType} files as PyPDF2 page objects, which are never equal for two different files`,
    )
  const expected = locate(ctx, expectedFile)
  if (!('disk' in expected) || !existsSync(expected.disk))
    cannot(`the reference workbook ${expectedFile.replace(/^(\.\.\/)+/, '')} does not exist`)
  return { type: 'sameSheet', path: agentPathOf(result), expected: expected.disk }
}

function diff(ctx: TranslateContext, args: Record<string, unknown>): Check {
  const docType = str(args.doc_type, 'document type')
  if (docType !== 'xlsx')
    cannot(`the check diffs ${docType} files, which OfficeBench's checker does not read`)
  const start = locate(ctx, str(args.input_file, 'start file'))
  if (!('disk' in start) || !existsSync(start.disk))
    cannot(`the start file ${String(args.input_file)} is not in the testbed`)
  return {
    type: 'sheetDiff',
    path: agentPathOf(str(args.output_file, 'result file')),
    start: start.disk,
    keywords: keywordsOf(args),
  }
}

function fileExist(ctx: TranslateContext, file: string): Check[] {
  const path = agentPathOf(file)
  const parts = path.split('/').filter(Boolean)
  // A message file under emails/<Person>/: a message with that subject in the person's folder.
  if (parts[0] === 'emails' && parts.length === 3 && parts[2]?.endsWith('.eml')) {
    const person = parts[1] ?? ''
    return [
      {
        type: 'mail',
        folder: isOwn(ctx, person) ? 'Sent' : person,
        to: [],
        subject: parts[2].slice(0, -'.eml'.length),
        includes: [],
      },
    ]
  }
  const format = formatOfName(path)
  return [
    { type: 'files', exist: [path], absent: [] },
    ...(format ? [{ type: 'fileSignature' as const, path, format }] : []),
  ]
}

function one(ctx: TranslateContext, e: Evaluation): Check[] {
  const args = e.args
  switch (e.function) {
    case 'evaluate_contain':
      return [contain(ctx, args, false)]
    case 'evaluate_not_contain':
      return [contain(ctx, args, true)]
    case 'evaluate_file_exist':
      return fileExist(ctx, str(args.file, 'file'))
    case 'evaluate_file_not_exist':
      return [{ type: 'files', exist: [], absent: [agentPathOf(str(args.file, 'file'))] }]
    case 'evaluate_excel_cell_value':
      return [cells(args, false)]
    case 'evaluate_excel_cell_comparator':
      return [cells(args, true)]
    case 'evaluate_exact_match':
      return [exactMatch(ctx, args)]
    case 'evaluate_diff_contain_text':
      return [diff(ctx, args)]
    case 'evaluate_calendar_no_overlap':
      return [{ type: 'noOverlap', path: `/calendar/${str(args.username, 'user')}.ics` }]
    default:
      cannot(`the evaluation function ${e.function} is not one OfficeBench defines`)
  }
}

/** Translates a subtask's evaluation calls (all must pass) into Bureau checks with OfficeBench's semantics. */
export function translateEvaluation(ctx: TranslateContext, evaluation: readonly Evaluation[]): Translation {
  const checks: Check[] = []
  const reasons: string[] = []
  for (const e of evaluation) {
    try {
      checks.push(...one(ctx, e))
    } catch (error) {
      if (!(error instanceof CannotPass)) throw error
      reasons.push(`${e.function}: ${error.message}`)
    }
  }
  return reasons.length > 0 ? { checks, cannotPass: reasons.join('; ') } : { checks }
}
