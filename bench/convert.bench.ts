import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { createConverter } from '../src/main/convert'
import type { BenchRow } from './types'

// Side by side, each tool used the way it is used: one `bureau convert` process for a whole batch
// (the app converts in-process) against one pandoc / pdftotext process per file.
const repoRoot = fileURLToPath(new URL('../', import.meta.url))
const corpus = join(repoRoot, '..', 'shared', 'corpus', 'convert')
const bureau = join(repoRoot, 'bin', 'bureau.js')
const ROUNDS = 5

const docxFiles = ['test.docx', 'test_with_comment.docx', 'rlink.docx', 'equations.docx']
const textPdfs = [
  'test.pdf',
  'SPARSE-2024-INV-1234_borderless_table.pdf',
  'REPAIR-2022-INV-001_multipage.pdf',
  'movie-theater-booking-2024.pdf',
  'RECEIPT-2024-TXN-98765_retail_purchase.pdf',
  'masterformat_partial_numbering.pdf',
]
const scannedPdf = 'MEDRPT-2024-PAT-3847_medical_report_scan.pdf'

interface Timed {
  wall: number
  cpu: number
  stdout: string
}

const timeFile = join(mkdtempSync(join(tmpdir(), 'bureau-bench-')), 'time')

/** Runs one command under /usr/bin/time: wall clock from here, user+sys CPU of the child from time(1). */
function run(command: string, args: string[]): Timed {
  const started = performance.now()
  const result = spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', timeFile, command, ...args], {
    cwd: corpus,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  })
  const wall = performance.now() - started
  if (result.error) throw result.error
  const [user = 0, system = 0] =
    readFileSync(timeFile, 'utf8').trim().split('\n').pop()?.split(' ').map(Number) ?? []
  return { wall, cpu: (user + system) * 1000, stdout: result.stdout }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

const Report = z.object({
  files: z.array(z.object({ file: z.string(), ok: z.boolean(), markdown: z.string().optional() })),
})

function bureauBatch(files: string[]): Timed & { markdown: Map<string, string> } {
  const timed = run(process.execPath, [bureau, 'convert', '--json', ...files])
  const report = Report.parse(JSON.parse(timed.stdout))
  return { ...timed, markdown: new Map(report.files.map((file) => [file.file, file.markdown ?? ''])) }
}

function peerBatch(
  files: string[],
  perFile: (file: string) => [string, string[]],
): Timed & { output: Map<string, string> } {
  const output = new Map<string, string>()
  let wall = 0
  let cpu = 0
  for (const file of files) {
    const [command, args] = perFile(file)
    const timed = run(command, args)
    wall += timed.wall
    cpu += timed.cpu
    output.set(file, timed.stdout)
  }
  return { wall, cpu, stdout: '', output }
}

/** Words of a Markdown/text output; link targets, HTML tags and data URIs are markup, not words. */
function words(text: string): Map<string, number> {
  const plain = text
    .replace(/data:[\w/+.-]+;base64,[A-Za-z0-9+/=]*/g, ' ')
    .replace(/\]\([^)]*\)/g, '] ')
    .replace(/<[^>]+>/g, ' ')
  const counts = new Map<string, number>()
  for (const word of plain.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    counts.set(word, (counts.get(word) ?? 0) + 1)
  return counts
}

function recall(reference: string, candidate: string): number {
  const wanted = words(reference)
  const have = words(candidate)
  let total = 0
  let found = 0
  for (const [word, count] of wanted) {
    total += count
    found += Math.min(count, have.get(word) ?? 0)
  }
  return total === 0 ? 1 : found / total
}

interface Comparison {
  ratio: number
  cpuRatio: number
  bureauMs: number
  peerMs: number
  recalls: [string, number][]
}

function compare(files: string[], peer: (file: string) => [string, string[]]): Comparison {
  const ours: (Timed & { markdown: Map<string, string> })[] = []
  const theirs: (Timed & { output: Map<string, string> })[] = []
  // Warm the page cache and the peer's binaries once, then alternate so load drifts hit both.
  bureauBatch(files)
  peerBatch(files, peer)
  for (let round = 0; round < ROUNDS; round++) {
    ours.push(bureauBatch(files))
    theirs.push(peerBatch(files, peer))
  }
  const bureauMs = median(ours.map((entry) => entry.wall))
  const peerMs = median(theirs.map((entry) => entry.wall))
  const last = ours[ours.length - 1]
  const lastPeer = theirs[theirs.length - 1]
  return {
    ratio: bureauMs / peerMs,
    cpuRatio: median(ours.map((entry) => entry.cpu)) / median(theirs.map((entry) => entry.cpu)),
    bureauMs,
    peerMs,
    recalls: files.map((file) => [
      file,
      recall(lastPeer?.output.get(file) ?? '', last?.markdown.get(file) ?? ''),
    ]),
  }
}

function cpuNote(comparison: Comparison, peer: string): string {
  const cpu = Number.isFinite(comparison.cpuRatio)
    ? comparison.cpuRatio.toFixed(2)
    : `n/a (${peer} CPU under the 10 ms timer step)`
  return `bureau ${comparison.bureauMs.toFixed(0)} ms vs ${peer} ${comparison.peerMs.toFixed(0)} ms; CPU ratio ${cpu}`
}

/** The app converts in-process with a warm converter: the batch time once libraries are loaded and compiled. */
async function warmInProcess(files: string[]): Promise<number> {
  const converter = createConverter({ ocr: false })
  const inputs = files.map((file) => ({
    name: file,
    bytes: new Uint8Array(readFileSync(join(corpus, file))),
  }))
  const times: number[] = []
  try {
    for (let round = 0; round < ROUNDS + 2; round++) {
      const started = performance.now()
      // The cache is keyed by content and options: a different budget per round forces a real conversion.
      for (const input of inputs) await converter.convert(input, { maxChars: 1_000_000 + round })
      times.push(performance.now() - started)
    }
  } finally {
    await converter.dispose()
  }
  return median(times.slice(2))
}

function recallRows(peer: string, comparison: Comparison): BenchRow[] {
  return comparison.recalls.map(([file, value]) => ({
    name: `word recall vs ${peer}: ${file}`,
    value,
    unit: 'ratio',
    target: '≥ 0.98',
    pass: value >= 0.98,
  }))
}

export default async function convertBench(): Promise<BenchRow[]> {
  try {
    const docx = compare(docxFiles, (file) => ['pandoc', ['-t', 'gfm', file]])
    const pdf = compare(textPdfs, (file) => ['pdftotext', ['-layout', file, '-']])
    const docxWarm = await warmInProcess(docxFiles)
    const pdfWarm = await warmInProcess(textPdfs)
    const scan = run(process.execPath, [bureau, 'convert', scannedPdf])
    const startup = median(
      Array.from({ length: ROUNDS }, () => run(process.execPath, [bureau, 'convert', 'test.json']).wall),
    )
    return [
      {
        name: `docx batch (${docxFiles.length} files): bureau / pandoc, median wall`,
        value: docx.ratio,
        unit: 'x',
        target: '≤ 1',
        pass: docx.ratio <= 1,
        note: cpuNote(docx, 'pandoc'),
      },
      ...recallRows('pandoc', docx),
      {
        name: `pdf batch (${textPdfs.length} text-layer files): bureau / pdftotext, median wall`,
        value: pdf.ratio,
        unit: 'x',
        target: '≤ 3',
        pass: pdf.ratio <= 3,
        note: cpuNote(pdf, 'pdftotext'),
      },
      ...recallRows('pdftotext', pdf),
      {
        name: `in-process, warm: ${docxFiles.length} docx / ${textPdfs.length} pdf (median batch)`,
        value: docxWarm,
        unit: 'ms',
        note: `docx ${docxWarm.toFixed(0)} ms, pdf ${pdfWarm.toFixed(0)} ms: what the app pays once the converters are loaded`,
      },
      {
        name: 'scanned pdf (3 pages, offline OCR): bureau convert',
        value: scan.wall / 1000,
        unit: 's',
        note: 'informative: pdftotext finds no text in it at all',
      },
      {
        name: 'bureau convert start-up (tiny JSON file, median wall)',
        value: startup,
        unit: 'ms',
        note: 'informative: node start + CLI + lazy converter load',
      },
    ]
  } finally {
    rmSync(join(timeFile, '..'), { recursive: true, force: true })
  }
}
