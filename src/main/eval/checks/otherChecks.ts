import { readFile, stat } from 'node:fs/promises'
import { norm } from './cellText'
import type { CheckOf, Fact } from './checkSchema'
import { type CheckContext, diskPath, fail } from './context'

async function exists(ctx: CheckContext, agentPath: string): Promise<boolean> {
  return stat(diskPath(ctx, agentPath)).then(
    (s) => s.isFile() || s.isDirectory(),
    () => false,
  )
}

export async function checkFiles(check: CheckOf<'files'>, ctx: CheckContext): Promise<string> {
  for (const path of check.exist) if (!(await exists(ctx, path))) fail(`${path} does not exist`)
  for (const path of check.absent) if (await exists(ctx, path)) fail(`${path} should not exist any more`)
  return `${check.exist.length} present, ${check.absent.length} absent`
}

async function readText(ctx: CheckContext, path: string): Promise<string> {
  try {
    return await readFile(diskPath(ctx, path), 'utf8')
  } catch {
    fail(`${path} does not exist`)
  }
}

/** Text compared without case, with runs of whitespace as one space and thousands separators dropped. */
export function loose(text: string): string {
  return norm(text.replace(/(\d)[,\u00a0\u202f](?=\d{3}\b)/g, '$1').replace(/[*_`]/g, ''))
}

export function hasFact(text: string, fact: Fact): boolean {
  const haystack = loose(text)
  return (Array.isArray(fact) ? fact : [fact]).some((alt) => haystack.includes(loose(alt)))
}

export function factName(fact: Fact): string {
  return Array.isArray(fact) ? fact.map((f) => `"${f}"`).join(' or ') : `"${fact}"`
}

export async function checkFileText(check: CheckOf<'fileText'>, ctx: CheckContext): Promise<string> {
  const text = await readText(ctx, check.path)
  if (check.equals !== undefined && text.trimEnd() !== check.equals.trimEnd())
    fail(`${check.path} has other content (${JSON.stringify(text.slice(0, 60))}...)`)
  for (const fact of check.includes)
    if (!hasFact(text, fact)) fail(`${check.path} does not mention ${factName(fact)}`)
  return `${check.path} as expected`
}

/** Every number written in the text: 1,234.50 / 1234.5 / -24 (thousands separators allowed). */
export function numbersIn(text: string): number[] {
  return [...text.matchAll(/-?\d{1,3}(?:[,\u00a0\u202f]\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?/g)].map((m) =>
    Number(m[0].replace(/[,\u00a0\u202f]/g, '')),
  )
}

export function checkAnswer(check: CheckOf<'answer'>, ctx: CheckContext): string {
  const found = numbersIn(ctx.answer)
  if (!ctx.answer.trim()) fail('the answer is empty')
  for (const n of check.numbers)
    if (!found.some((f) => Math.abs(f - n) < 0.005))
      fail(`the answer does not give ${n} (numbers in it: ${found.join(', ') || 'none'})`)
  for (const fact of check.includes)
    if (!hasFact(ctx.answer, fact)) fail(`the answer does not mention ${factName(fact)}`)
  for (const text of check.excludes) if (hasFact(ctx.answer, text)) fail(`the answer mentions "${text}"`)
  return 'the answer has the required facts'
}

interface Section {
  level: number
  text: string
  body: string
}

function sections(markdown: string): Section[] {
  const out: Section[] = []
  for (const line of markdown.split(/\r?\n/)) {
    const m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line)
    if (m) out.push({ level: (m[1] as string).length, text: m[2] as string, body: '' })
    else if (out.length > 0) (out.at(-1) as Section).body += `${line}\n`
  }
  return out
}

const headingKey = (text: string) => norm(text.replace(/[:.]+$/, ''))

export async function checkMarkdown(check: CheckOf<'markdown'>, ctx: CheckContext): Promise<string> {
  checkStructure(await readText(ctx, check.path), check.path, check.headings, check.facts)
  return `${check.path} has the structure and facts`
}

/** Markdown with `headings` in this order (levels checked) and `facts` in the section under each heading. */
export function checkStructure(
  markdown: string,
  path: string,
  headings: readonly { level: number; text: string }[],
  facts: Record<string, readonly Fact[]>,
): void {
  const found = sections(markdown)
  let from = 0
  for (const want of headings) {
    const index = found.findIndex(
      (s, i) => i >= from && s.level === want.level && headingKey(s.text) === headingKey(want.text),
    )
    if (index < 0) {
      const shown = found.map((s) => `${'#'.repeat(s.level)} ${s.text}`).join(' | ')
      fail(`${path} lacks "${'#'.repeat(want.level)} ${want.text}" in order (headings: ${shown || 'none'})`)
    }
    from = index + 1
  }
  for (const [heading, wanted] of Object.entries(facts)) {
    const at = found.findIndex((s) => headingKey(s.text) === headingKey(heading))
    if (at < 0) fail(`${path} has no heading "${heading}"`)
    const section = found[at] as Section
    // A section's text runs to the next heading of the same or a higher level.
    const end = found.findIndex((s, i) => i > at && s.level <= section.level)
    const body = found
      .slice(at, end < 0 ? undefined : end)
      .map((s) => `${s.text}\n${s.body}`)
      .join('\n')
    for (const fact of wanted)
      if (!hasFact(body, fact)) fail(`the section "${heading}" does not mention ${factName(fact)}`)
  }
}

export function checkSubmission(check: CheckOf<'submission'>, ctx: CheckContext): string {
  const last = ctx.submissions.filter((s) => s.path === check.path).at(-1)
  if (!last) fail(`nothing was submitted to ${check.path}`)
  for (const [name, want] of Object.entries(check.fields)) {
    const got = last.fields[name] ?? ''
    if (norm(got) !== norm(want))
      fail(`the form's ${name} was ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`)
  }
  return `form submitted to ${check.path}`
}
