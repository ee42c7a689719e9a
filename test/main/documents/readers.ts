import { execFile } from 'node:child_process'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { withLibreOfficeProfile } from '../../support/libreOffice'

const run = promisify(execFile)

/** pdftotext (poppler) in reading order, no layout. */
export async function pdfText(path: string): Promise<string> {
  return (await run('pdftotext', ['-enc', 'UTF-8', path, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout
}

export async function pdfPages(path: string): Promise<number> {
  const { stdout } = await run('pdfinfo', [path])
  return Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1] ?? Number.NaN)
}

/** Rows of `pdfimages -list` (one per embedded picture). */
export async function pdfImages(
  path: string,
): Promise<Array<{ page: number; width: number; height: number }>> {
  const { stdout } = await run('pdfimages', ['-list', path])
  return stdout
    .split('\n')
    .slice(2)
    .map((line) => line.trim().split(/\s+/))
    .filter((cells) => cells.length > 4 && cells[2] === 'image')
    .map((cells) => ({ page: Number(cells[0]), width: Number(cells[3]), height: Number(cells[4]) }))
}

/** LibreOffice headless opens the DOCX and writes a PDF; returns its path (throws when it cannot load the file). */
export async function libreOfficeToPdf(docx: Uint8Array, dir: string, name: string): Promise<string> {
  await mkdir(join(dir, 'in'), { recursive: true })
  const input = join(dir, 'in', `${name}.docx`)
  await writeFile(input, docx)
  const out = join(dir, 'out')
  return withLibreOfficeProfile(async (userInstallation) => {
    const { stdout, stderr } = await run(
      'soffice',
      ['--headless', '--norestore', userInstallation, '--convert-to', 'pdf', '--outdir', out, input],
      { timeout: 180_000 },
    )
    const made: string[] = await readdir(out).catch(() => [])
    if (!made.includes(`${name}.pdf`))
      throw new Error(`LibreOffice did not convert ${name}.docx: ${stdout} ${stderr}`)
    return join(out, `${name}.pdf`)
  })
}

/** Each needle appears, in this order. */
export function inOrder(text: string, needles: readonly string[]): string[] {
  const missing: string[] = []
  let from = 0
  for (const needle of needles) {
    const at = text.indexOf(needle, from)
    if (at < 0) missing.push(needle)
    else from = at + needle.length
  }
  return missing
}

/**
 * One LibreOffice run converts every file (`txt` or `pdf`): starting soffice is the slow part, so a test file
 * shares one call. Returns the output path per input name; throws when any file could not be loaded.
 */
export async function libreOfficeConvert(
  files: Record<string, Uint8Array>,
  dir: string,
  format: 'txt' | 'pdf',
): Promise<Record<string, string>> {
  await mkdir(join(dir, 'in'), { recursive: true })
  const inputs: string[] = []
  for (const [name, bytes] of Object.entries(files)) {
    const input = join(dir, 'in', `${name}.docx`)
    await writeFile(input, bytes)
    inputs.push(input)
  }
  const out = join(dir, 'out')
  return withLibreOfficeProfile(async (userInstallation) => {
    const { stdout, stderr } = await run(
      'soffice',
      [
        '--headless',
        '--norestore',
        userInstallation,
        '--convert-to',
        format === 'txt' ? 'txt:Text (encoded):UTF8' : 'pdf',
        '--outdir',
        out,
        ...inputs,
      ],
      { timeout: 180_000 },
    )
    const made: string[] = await readdir(out).catch(() => [])
    const result: Record<string, string> = {}
    for (const name of Object.keys(files)) {
      if (!made.includes(`${name}.${format}`))
        throw new Error(`LibreOffice did not convert ${name}.docx: ${stdout} ${stderr}`)
      result[name] = join(out, `${name}.${format}`)
    }
    return result
  })
}

export interface WordBox {
  text: string
  xMin: number
  xMax: number
  yMin: number
}

/** Every word of the PDF with its box (`pdftotext -bbox`), in reading order. */
export async function pdfWords(path: string): Promise<WordBox[]> {
  const { stdout } = await run('pdftotext', ['-bbox', '-enc', 'UTF-8', path, '-'], {
    maxBuffer: 64 * 1024 * 1024,
  })
  const words: WordBox[] = []
  for (const m of stdout.matchAll(
    /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g,
  ))
    words.push({ text: m[4] ?? '', xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]) })
  return words
}

/**
 * How far apart the left edges, centres and right edges of these words (first occurrence of each) lie, in
 * points: a right-aligned column has its right edges together and its left edges apart.
 */
export function edgeSpread(words: readonly WordBox[], column: readonly string[]) {
  const boxes = column.map((text) => {
    const box = words.find((w) => w.text === text)
    if (!box) throw new Error(`"${text}" is not in the PDF`)
    return box
  })
  const spread = (values: number[]) => Math.max(...values) - Math.min(...values)
  return {
    left: spread(boxes.map((b) => b.xMin)),
    centre: spread(boxes.map((b) => (b.xMin + b.xMax) / 2)),
    right: spread(boxes.map((b) => b.xMax)),
  }
}

/** The text of the page (pdftotext separates pages with form feeds) that holds `needle`. */
export function pageHolding(text: string, needle: string): string | undefined {
  return text.split('\f').find((page) => page.includes(needle))
}
