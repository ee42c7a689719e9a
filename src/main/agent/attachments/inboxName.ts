import type { Workspace } from '../../workspace'
import { parseAgentPath } from '../../workspace'

export const INBOX_DIR = '/inbox'

// Controls, line/paragraph separators and invisible format characters (bidi overrides, BOM); ZWNJ/ZWJ stay.
const INVISIBLE = /[\p{Cc}\p{Zl}\p{Zp}]|(?![\u200C\u200D])\p{Cf}/gu
// Characters a workspace path refuses in a name (":", "\\", a "%xx" escape), and Unicode look-alikes of
// "/", "\\", ":" and "%".
const UNSAFE =
  /[:\\\u2044\u2215\u29F8\u29F9\u2216\u244A\u2571\u2572\uFE68\uFF0F\uFF3C\uFF1A\uFE55\uFE13\uFF05\uFE6A]|%(?=[0-9a-f]{2})/giu
const DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$|clock\$)(?:\s*\..*)?$/i

export interface SafeName {
  name: string
  /** Why the name differs from the one the user's system gave, when it does for more than its folder. */
  why?: string
}

function accepted(name: string): boolean {
  try {
    return parseAgentPath(`${INBOX_DIR}/${name}`).segments.length === 2
  } catch {
    return false
  }
}

/** The steps that turn what the user's system called the file into a name the workspace accepts. */
function cleanName(base: string): { name: string; reasons: string[] } {
  const reasons: string[] = []
  const step = (next: string, reason: string) => {
    if (next !== name) reasons.push(reason)
    name = next
  }
  let name = base.normalize('NFC')
  step(name.replace(INVISIBLE, ''), 'it contained control or invisible characters')
  step(name.replace(UNSAFE, '_'), 'it contained ":", "\\", a %xx escape or a look-alike of one of them')
  step(name.replace(/[. ]+$/, ''), 'it ended with a dot or a space')
  step(name.trim(), 'it had spaces around it')
  if (DEVICE.test(name) || DEVICE.test(name.normalize('NFKC')))
    step(`_${name}`, 'it is a reserved device name')
  if (Buffer.byteLength(name) > 200) step(shorten(name, 200), 'it was too long')
  return { name, reasons }
}

/** A name that `/inbox/<name>` accepts, from what the user's system called the file, and why it changed. */
export function safeFileName(original: string): SafeName {
  const base = original.split(/[\\/]/).pop() ?? ''
  const { name, reasons } = cleanName(base)
  if (name !== '' && name !== '.' && name !== '..' && accepted(name))
    return reasons.length > 0 ? { name, why: reasons.join('; ') } : { name }
  const fallback = 'attachment'
  return base === '' ? { name: fallback } : { name: fallback, why: 'no safe name could be made from it' }
}

function shorten(name: string, maxBytes: number): string {
  const dot = name.lastIndexOf('.')
  const ext = dot > 0 && name.length - dot <= 12 ? name.slice(dot) : ''
  let stem = name.slice(0, name.length - ext.length)
  while (Buffer.byteLength(stem + ext) > maxBytes) stem = stem.slice(0, -1)
  return stem + ext
}

function numbered(name: string, n: number): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? `${name.slice(0, dot)}-${n}${name.slice(dot)}` : `${name}-${n}`
}

async function sameContent(workspace: Workspace, path: string, bytes: Uint8Array): Promise<boolean> {
  const info = await workspace.stat(path)
  if (info.type !== 'file' || info.size !== bytes.length) return false
  const existing = await workspace.readFile(path, { maxBytes: bytes.length + 1 })
  return Buffer.from(bytes).equals(existing)
}

export interface InboxFile {
  path: string
  /** Set when the file was saved under another name than the user's: says which and why. */
  note?: string
}

/**
 * Saves an attachment as `/inbox/<name>`. The same bytes dropped again reuse their file; a different
 * file with a taken name becomes `<stem>-2.<ext>`, `-3`, ... A name the workspace refuses (CON, a:b.txt,
 * trailing dots, bidi overrides, %2e...) is saved under a safe one, and the note says so.
 */
export async function saveToInbox(workspace: Workspace, name: string, bytes: Uint8Array): Promise<InboxFile> {
  const safe = safeFileName(name)
  const note = (path: string) =>
    safe.why
      ? { note: `Saved as ${path}: ${JSON.stringify(name)} is not a safe file name (${safe.why}).` }
      : {}
  for (let n = 1; n < 1000; n++) {
    const path = `${INBOX_DIR}/${n === 1 ? safe.name : numbered(safe.name, n)}`
    if (!(await workspace.exists(path))) {
      const receipt = await workspace.writeFile(path, bytes, { overwrite: false, message: `attach ${path}` })
      return { path: receipt.path, ...note(receipt.path) }
    }
    if (await sameContent(workspace, path, bytes)) return { path, ...note(path) }
  }
  throw new Error(`too many files named "${safe.name}" in ${INBOX_DIR}`)
}
