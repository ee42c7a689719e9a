import { AppError } from '../../../shared/errors'
import type { KnowledgeStatus } from '../../knowledge'
import { createLogger, defaultDataDir } from '../../platform'
import { openCliToolEnvironment } from '../cliToolEnvironment'
import type { IndexCliOptions } from '../commandOptions'
import { noticePrinter, processTextIo, stderrLine, type TextIo } from '../textIo'

async function withKnowledge<T>(
  options: IndexCliOptions,
  io: TextIo,
  use: (environment: Awaited<ReturnType<typeof openCliToolEnvironment>>) => Promise<T>,
  onStatus?: (status: KnowledgeStatus) => void,
): Promise<T> {
  const logger = createLogger({
    level: process.env.BUREAU_LOG_LEVEL === 'debug' ? 'debug' : 'warn',
    write: stderrLine,
  })
  const environment = await openCliToolEnvironment({
    dataDir: options.dataDir ?? defaultDataDir(),
    ...(options.workspace ? { workspace: options.workspace } : {}),
    browser: {},
    logger,
    notify: noticePrinter(io),
    ...(onStatus ? { onKnowledgeStatus: onStatus } : {}),
  })
  try {
    return await use(environment)
  } finally {
    await environment.close()
  }
}

/** `bureau index build`: indexes what changed; progress lines on stderr; exit 1 when a file failed. */
export async function runIndexBuild(options: IndexCliOptions, io: TextIo = processTextIo): Promise<void> {
  let lastLine = 0
  const progress = (status: KnowledgeStatus) => {
    if (options.json || !status.current || Date.now() - lastLine < 500) return
    lastLine = Date.now()
    io.err(`indexing ${status.done}/${status.total}: ${status.current}\n`)
  }
  const started = performance.now()
  const report = await withKnowledge(options, io, (environment) => environment.knowledge.build(), progress)
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  if (options.json) io.out(`${JSON.stringify({ ...report, seconds: Number(seconds) }, null, 2)}\n`)
  else {
    io.out(
      `${report.scanned} files: ${report.indexed} indexed, ${report.unchanged} unchanged, ${report.removed} removed, ${report.errors.length} failed (${seconds} s)\n`,
    )
    for (const problem of report.errors) io.out(`  ${problem.path}: ${problem.message}\n`)
    if (report.truncated) io.out('  (more files than knowledge.maxFiles: the rest were left out)\n')
    if (report.embeddingError) io.out(`  vectors: ${report.embeddingError}\n`)
  }
  if (report.errors.length > 0)
    throw new AppError('HANDLER_FAILED', `${report.errors.length} file(s) could not be indexed`)
}

export async function runIndexStatus(options: IndexCliOptions, io: TextIo = processTextIo): Promise<void> {
  const status = await withKnowledge(options, io, (environment) => environment.knowledge.status())
  if (options.json) {
    io.out(`${JSON.stringify(status, null, 2)}\n`)
    return
  }
  io.out(
    `${status.files} files, ${status.passages} passages, ${status.mode === 'hybrid' ? 'BM25 + vectors' : 'BM25'}; last build ${status.lastBuild ?? 'never'}\n`,
  )
  if (status.rebuiltBecause) io.out(`rebuilt: ${status.rebuiltBecause}\n`)
  if (status.embeddingError) io.out(`vectors: ${status.embeddingError}\n`)
  for (const problem of status.errors) io.out(`  ${problem.path}: ${problem.message}\n`)
}

export async function runIndexSearch(
  query: string,
  options: IndexCliOptions,
  io: TextIo = processTextIo,
): Promise<void> {
  const outcome = await withKnowledge(options, io, (environment) =>
    environment.knowledge.search({ query, topK: options.topK ?? 8, pathGlob: options.pathGlob }),
  )
  if (options.json) {
    const { status: _status, ...rest } = outcome
    io.out(`${JSON.stringify(rest, null, 2)}\n`)
    return
  }
  if (outcome.warning) io.err(`${outcome.warning}\n`)
  if (outcome.passages.length === 0) io.out('No passage matches.\n')
  for (const [index, passage] of outcome.passages.entries()) {
    io.out(`[${index + 1}] ${passage.path} — ${passage.location} (score ${passage.score})\n`)
    io.out(`    ${passage.text.slice(0, 200).replace(/\s+/g, ' ')}\n`)
  }
}
