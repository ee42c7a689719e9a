import { spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate'
import { createConverter } from '../src/main/convert'
import { createKnowledgeService } from '../src/main/knowledge'
import { createWorkspace } from '../src/main/workspace'
import { defaultSettings } from '../src/shared/settings'
import { fixtureQuestions, plantedFact, type Question } from './knowledgeQuestions'
import { corpusDir, skippedWithout } from './support'
import type { BenchRow } from './types'

// A generated workspace of 1,000 documents made from the test fixtures: every copy differs (a planted
// sentence in text formats, an edited text run inside the zip of docx/pptx/xlsx), so the converter's
// content cache cannot answer for them; the PDFs are byte copies (their conversions do hit the cache).
const DOCS = 1_000
const sources = [
  'test.docx',
  'test_with_comment.docx',
  'test.pptx',
  'test.xlsx',
  'test_blog.html',
  'test_wikipedia.html',
  'test_notebook.ipynb',
  'test_mskanji.csv',
  'REPAIR-2022-INV-001_multipage.pdf',
  'RECEIPT-2024-TXN-98765_retail_purchase.pdf',
  'movie-theater-booking-2024.pdf',
  'SPARSE-2024-INV-1234_borderless_table.pdf',
]
const zipText: Record<string, RegExp> = { docx: /<w:t(?: [^>]*)?>/, pptx: /<a:t>/, xlsx: /<t(?: [^>]*)?>/ }

async function generate(root: string): Promise<Question[]> {
  const questions = [...fixtureQuestions]
  const bytes = await Promise.all(sources.map((name) => readFile(join(corpusDir('convert'), name))))
  for (let index = 0; index < DOCS; index++) {
    const source = sources[index % sources.length]!
    const extension = source.slice(source.lastIndexOf('.') + 1)
    const fact = plantedFact(index)
    if (fact) questions.push(fact.question)
    const folder = join(root, `dept-${index % 10}`, `year-${2015 + (index % 9)}`)
    await mkdir(folder, { recursive: true })
    const name = `${source.replace(/\.[^.]+$/, '').toLowerCase()}-${index}`
    const stamp = `Copy ${index}. ${fact?.sentence ?? ''}`
    await writeFile(
      join(folder, fact ? `${name}.md` : `${name}.${extension}`),
      fact ? `# Note ${index}\n\n${stamp}\n` : varied(bytes[index % sources.length]!, extension, stamp),
    )
  }
  return questions
}

function varied(original: Buffer, extension: string, stamp: string): Uint8Array {
  const run = zipText[extension]
  if (run) {
    const files = unzipSync(original)
    for (const [part, content] of Object.entries(files)) {
      if (!part.endsWith('.xml')) continue
      const text = strFromU8(content)
      if (!run.test(text)) continue
      files[part] = strToU8(text.replace(run, (tag) => `${tag}${escapeXml(stamp)} `))
      return zipSync(files)
    }
  }
  if (['html', 'csv', 'ipynb', 'md'].includes(extension)) {
    const text = original.toString('utf8')
    if (extension === 'html') return Buffer.from(text.replace('<body', `<p>${escapeXml(stamp)}</p><body`))
    if (extension === 'csv') return Buffer.from(`${text.trimEnd()}\n${stamp.replaceAll(',', ' ')},,\n`)
    if (extension === 'ipynb')
      return Buffer.from(text.replace('"# Test Notebook', `"# Test Notebook ${stamp.replaceAll('"', '')}`))
  }
  return original
}

function escapeXml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

async function ripgrep(dir: string, word: string): Promise<number | undefined> {
  const found = spawnSync('rg', ['--version'])
  if (found.status !== 0) return undefined
  const started = performance.now()
  spawnSync('rg', ['-c', '-i', word, dir])
  return performance.now() - started
}

export default async function knowledgeBench(): Promise<BenchRow[]> {
  const skipped = skippedWithout(corpusDir('convert'))
  if (skipped) return skipped
  const root = await mkdtemp(join(tmpdir(), 'bureau-knowledge-bench-'))
  const dataDir = await mkdtemp(join(tmpdir(), 'bureau-knowledge-data-'))
  const questions = await generate(root)
  const workspace = createWorkspace({ root, history: false })
  const converter = createConverter()
  const settings = defaultSettings().knowledge
  const knowledge = createKnowledgeService({
    dataDir,
    workspace: () => workspace,
    converter,
    settings: () => settings,
    embedder: async () => undefined,
    disabled: true,
  })
  let peakRss = process.memoryUsage().rss
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss)
  }, 50)
  try {
    const started = performance.now()
    const cpuStart = process.cpuUsage()
    const report = await knowledge.build()
    const fullSeconds = (performance.now() - started) / 1000
    const cpu = process.cpuUsage(cpuStart)
    // The process's CPU time (worker threads included): what the index costs, whatever else runs here.
    const cpuSeconds = (cpu.user + cpu.system) / 1e6
    const load = loadavg()[0]!
    clearInterval(sampler)
    const docsPerSecond = report.indexed / fullSeconds

    const target = '/dept-3/year-2018/test-3.docx'
    await workspace.writeFile(
      '/dept-0/notes-edit.md',
      '# Edited\n\nA changed line about the zeppelin hangar.\n',
    )
    await knowledge.build(['/dept-0/notes-edit.md'])
    const editStart = performance.now()
    await workspace.writeFile(
      '/dept-0/notes-edit.md',
      '# Edited\n\nA changed line about the dirigible hangar.\n',
    )
    await knowledge.build(['/dept-0/notes-edit.md'])
    const incrementalMs = performance.now() - editStart
    const updated = await knowledge.search({ query: 'dirigible hangar', topK: 1 })

    const latencies: number[] = []
    let hits = 0
    for (let round = 0; round < 3; round++)
      for (const question of questions) {
        const t0 = performance.now()
        const outcome = await knowledge.search({ query: question.question, topK: 5 })
        latencies.push(performance.now() - t0)
        if (round === 0 && outcome.passages.some((passage) => passage.text.includes(question.answer))) hits++
      }
    const recall = hits / questions.length
    const { markdownDir, markdownFiles } = await dumpMarkdown(knowledge, workspace, dataDir)
    const rgMs = await ripgrep(markdownDir, 'reconciliation')
    const p50 = percentile(latencies, 50)
    const p95 = percentile(latencies, 95)
    return [
      {
        name: 'documents in the workspace',
        value: report.scanned,
        unit: 'files',
        note: `${report.errors.length} failed, ${(await knowledge.status()).passages} passages`,
      },
      {
        name: 'full index (BM25 only)',
        value: docsPerSecond,
        unit: 'docs/s',
        target: '≥ 20',
        pass: docsPerSecond >= 20,
        note: `${fullSeconds.toFixed(1)} s for ${report.indexed} documents; load average ${load.toFixed(1)} on ${cpus().length} cores`,
      },
      {
        name: 'full index per CPU-second',
        value: report.indexed / cpuSeconds,
        unit: 'docs/CPU-s',
        note: `${cpuSeconds.toFixed(1)} CPU-s in all threads; two free cores give up to twice this per second`,
      },
      { name: 'peak memory during the full index', value: peakRss / 2 ** 20, unit: 'MB RSS' },
      {
        name: 'incremental update of one changed file',
        value: incrementalMs,
        unit: 'ms',
        target: '< 1000',
        pass: incrementalMs < 1000 && updated.passages[0]?.path === '/dept-0/notes-edit.md',
        note: `edit of ${target.length ? '/dept-0/notes-edit.md' : ''}`,
      },
      {
        name: 'query latency p50',
        value: p50,
        unit: 'ms',
        target: '< 50',
        pass: p50 < 50,
        note: `${latencies.length} queries`,
      },
      { name: 'query latency p95', value: p95, unit: 'ms' },
      {
        name: 'recall@5 (BM25 alone)',
        value: recall,
        unit: '',
        target: '≥ 0.9',
        pass: recall >= 0.9,
        note: `${hits}/${questions.length} questions`,
      },
      ...(rgMs === undefined
        ? [
            {
              name: 'ripgrep keyword search of the converted text',
              value: Number.NaN,
              unit: 'ms',
              note: 'rg not installed (apt-get install ripgrep)',
            },
          ]
        : [
            {
              name: 'ripgrep keyword search of the converted text',
              value: rgMs,
              unit: 'ms',
              note: `floor for exact matches, ${markdownFiles} Markdown files`,
            },
          ]),
    ]
  } finally {
    clearInterval(sampler)
    await knowledge.close()
    await workspace.close()
    await converter.dispose()
    await rm(root, { recursive: true, force: true })
    await rm(dataDir, { recursive: true, force: true })
  }
}

/** The converted Markdown of every indexed file, written out once for ripgrep (its floor, not Bureau's work). */
async function dumpMarkdown(
  knowledge: ReturnType<typeof createKnowledgeService>,
  workspace: ReturnType<typeof createWorkspace>,
  dataDir: string,
): Promise<{ markdownDir: string; markdownFiles: number }> {
  const markdownDir = join(dataDir, 'markdown')
  await mkdir(markdownDir, { recursive: true })
  const listing = await workspace.list('/', { recursive: true, limit: 100_000 })
  let count = 0
  for (const entry of listing.entries) {
    if (entry.type !== 'file') continue
    const converted = await knowledge.markdownOf(entry.path).catch(() => undefined)
    if (!converted) continue
    await writeFile(join(markdownDir, `${count++}.md`), converted.markdown)
  }
  return { markdownDir, markdownFiles: count }
}
