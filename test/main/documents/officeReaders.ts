import { execFile } from 'node:child_process'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { strFromU8, unzipSync } from 'fflate'
import { withLibreOfficeProfile } from '../../support/libreOffice'

const run = promisify(execFile)

/**
 * One LibreOffice run converts every file to `format` (odt, pdf, txt...); returns the output's path per
 * input name. Throws when LibreOffice could not load one of them.
 */
export async function officeConvert(
  files: Record<string, { bytes: Uint8Array; ext: string }>,
  dir: string,
  format: string,
): Promise<Record<string, string>> {
  await mkdir(join(dir, 'in'), { recursive: true })
  const inputs: string[] = []
  for (const [name, file] of Object.entries(files)) {
    const input = join(dir, 'in', `${name}.${file.ext}`)
    await writeFile(input, file.bytes)
    inputs.push(input)
  }
  const out = join(dir, 'out')
  return withLibreOfficeProfile(async (userInstallation) => {
    const { stdout, stderr } = await run(
      'soffice',
      ['--headless', '--norestore', userInstallation, '--convert-to', format, '--outdir', out, ...inputs],
      { timeout: 240_000 },
    )
    const extension = format.split(':')[0] ?? format
    const made: string[] = await readdir(out).catch(() => [])
    const result: Record<string, string> = {}
    for (const name of Object.keys(files)) {
      if (!made.includes(`${name}.${extension}`))
        throw new Error(`LibreOffice did not convert ${name}: ${stdout} ${stderr}`)
      result[name] = join(out, `${name}.${extension}`)
    }
    return result
  })
}

/** What LibreOffice's ODT holds of the review: tracked changes (kind, author) and comments (author, text). */
export async function odtReview(path: string): Promise<{
  changes: Array<{ kind: string; author: string }>
  comments: Array<{ author: string; text: string }>
  text: string
}> {
  const content = strFromU8(
    unzipSync(new Uint8Array(await readFile(path)))['content.xml'] ?? new Uint8Array(),
  )
  const changes = [
    ...content.matchAll(
      /<text:(insertion|deletion|format-change)><office:change-info><dc:creator>([^<]*)<\/dc:creator>/g,
    ),
  ].map((m) => ({ kind: m[1] ?? '', author: m[2] ?? '' }))
  const comments = [
    ...content.matchAll(/<office:annotation(?:\s[^>]*)?>([\s\S]*?)<\/office:annotation>/g),
  ].map((m) => ({
    author: /<dc:creator>([^<]*)<\/dc:creator>/.exec(m[1] ?? '')?.[1] ?? '',
    text: (m[1] ?? '')
      .replace(
        /<dc:creator>[^<]*<\/dc:creator>|<dc:date>[^<]*<\/dc:date>|<meta:creator-initials>[^<]*<\/meta:creator-initials>/g,
        '',
      )
      .replace(/<[^>]+>/g, '')
      .trim(),
  }))
  const text = content
    .replace(/<text:tracked-changes>[\s\S]*?<\/text:tracked-changes>/, '')
    .replace(/<office:annotation(?:\s[^>]*)?>[\s\S]*?<\/office:annotation>/g, '')
    .replace(/<\/text:p>/g, '\n')
    .replace(/<[^>]+>/g, '')
  return { changes, comments, text }
}

const PYTHON_DOCX_READER = `
import json, sys, docx
from docx.oxml.ns import qn
d = docx.Document(sys.argv[1])
W = '{http://schemas.openxmlformats.org/wordprocessingml/2006/main}'
body = d.element.body
def text_of(e, tag):
    return ''.join(t.text or '' for t in e.iter(W + tag))
out = {'ins': [], 'del': [], 'comments': [], 'paragraphs': []}
for e in body.iter(W + 'ins'):
    if e.getparent().tag != W + 'rPr':
        out['ins'].append({'id': e.get(qn('w:id')), 'author': e.get(qn('w:author')), 'text': text_of(e, 't')})
for e in body.iter(W + 'del'):
    if e.getparent().tag != W + 'rPr':
        out['del'].append({'id': e.get(qn('w:id')), 'author': e.get(qn('w:author')), 'text': text_of(e, 'delText')})
for p in body.iter(W + 'p'):
    out['paragraphs'].append(''.join(t.text or '' for t in p.iter(W + 't')))
for rel in d.part.rels.values():
    if rel.reltype.endswith('/comments'):
        from lxml import etree
        root = etree.fromstring(rel.target_part.blob)
        for c in root.iter(W + 'comment'):
            out['comments'].append({'id': c.get(qn('w:id')), 'author': c.get(qn('w:author')), 'text': text_of(c, 't')})
print(json.dumps(out))
`

export interface PythonDocxView {
  ins: Array<{ id: string; author: string; text: string }>
  del: Array<{ id: string; author: string; text: string }>
  comments: Array<{ id: string; author: string; text: string }>
  paragraphs: string[]
}

/** Debian's python-docx opens the file; its XML tree gives the tracked changes and comments. */
export async function pythonDocxView(path: string): Promise<PythonDocxView> {
  const { stdout } = await run('/usr/bin/python3', ['-c', PYTHON_DOCX_READER, path], {
    maxBuffer: 64 * 1024 * 1024,
  })
  return JSON.parse(stdout) as PythonDocxView
}
