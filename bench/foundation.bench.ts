import { spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import type { BenchRow } from './types'

const root = fileURLToPath(new URL('..', import.meta.url))

/** Resident memory of a process now (VmRSS), in MiB. */
async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024
}

/** CPU time (user + system) a process has used so far, in ms: unlike wall time, not inflated by a busy machine. */
async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // utime and stime (fields 14 and 15 of the line) in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** Time from spawning `bureau serve` to the first 200 from /health (wall and CPU), and its RSS once idle after it. */
async function coldStart(): Promise<{ ms: number; cpuMs: number; idleMiB: number }> {
  const base = await mkdtemp(join(tmpdir(), 'bureau-bench-'))
  const started = performance.now()
  const child = spawn(
    process.execPath,
    ['bin/bureau.js', 'serve', '--port', '0', '--data-dir', join(base, 'd'), '--workspace', join(base, 'w')],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const port = await new Promise<number>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const m = out.match(/127\.0\.0\.1:(\d+)/)
      if (m) resolve(Number(m[1]))
    })
    child.once('exit', (code) => reject(new Error(`serve exited ${code}`)))
  })
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) break
  }
  const ms = performance.now() - started
  const cpu = await cpuMs(child.pid ?? 0)
  // Idle: one second after /health answered, nothing asked of it.
  await new Promise((r) => setTimeout(r, 1000))
  const idleMiB = await rssMiB(child.pid ?? 0)
  child.kill('SIGTERM')
  await new Promise((r) => child.once('exit', r))
  await rm(base, { recursive: true, force: true })
  return { ms, cpuMs: cpu, idleMiB }
}

/** The JS the renderer loads before any lazy page: the entry chunk plus its static imports. */
async function initialJsGzipKb(): Promise<number> {
  const rendererDir = join(root, 'out', 'renderer')
  const html = await readFile(join(rendererDir, 'index.html'), 'utf8')
  const scripts = [...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1] ?? '')
  let total = 0
  for (const file of new Set(scripts)) total += gzipSync(await readFile(join(rendererDir, file))).length
  return total / 1024
}

async function lazyChunksGzipKb(): Promise<number> {
  const assets = join(root, 'out', 'renderer', 'assets')
  let total = 0
  for (const file of await readdir(assets))
    if (file.endsWith('.js')) total += gzipSync(await readFile(join(assets, file))).length
  return total / 1024
}

export default async function foundationBench(): Promise<BenchRow[]> {
  const runs: { ms: number; cpuMs: number; idleMiB: number }[] = []
  for (let i = 0; i < 5; i++) runs.push(await coldStart())
  const middle = (values: number[]) => values.sort((a, b) => a - b)[2] ?? Number.NaN
  const initial = await initialJsGzipKb()
  return [
    {
      name: 'serve cold start to /health (median of 5)',
      value: middle(runs.map((run) => run.ms)),
      unit: 'ms',
    },
    {
      name: 'serve CPU time to /health (median of 5)',
      value: middle(runs.map((run) => run.cpuMs)),
      unit: 'ms',
      note: 'user + system; the toolsets load at start without their heavy libraries (loaded on first call)',
    },
    {
      name: 'serve idle RSS 1 s after /health (median of 5)',
      value: middle(runs.map((run) => run.idleMiB)),
      unit: 'MiB',
      note: 'informative: toolset libraries load on first call; LanceDB loads with the background index',
    },
    { name: 'renderer initial JS (gzip)', value: initial, unit: 'KiB' },
    { name: 'renderer all JS incl. lazy chunks (gzip)', value: await lazyChunksGzipKb(), unit: 'KiB' },
  ]
}
