import { refuse } from './errors'
import { isInternalName } from './internalPaths'
import { checkName } from './nameRules'

export const MAX_PATH_BYTES = 4096

/** A syntactically valid agent path: `/` plus the checked segments. */
export interface ParsedAgentPath {
  /** Canonical form: starts with `/`, no `.`/`..`/empty segments, no trailing slash (root is `/`). */
  readonly path: string
  readonly segments: readonly string[]
}

// Cc (controls, incl. NUL and C1) and line/paragraph separators.
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u
// Bidi controls: they reorder what is shown, so "txt.exe" can display as "exe.txt".
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u
// Invisible characters: format characters (zero-width space, word joiner, BOM, soft hyphen, tags...),
// the combining grapheme joiner and the Hangul fillers, which render as nothing or as a blank.
const INVISIBLE = /\p{Cf}|\u034F|[\u115F\u1160\u3164\uFFA0]/u
const ZERO_WIDTH_JOINERS = /[\u200C\u200D]/gu
// Where ZWNJ/ZWJ are ordinary text: between letters (or a virama) of scripts that shape with them
// (Persian "می‌خواهم", Devanagari half forms), and ZWJ inside an emoji sequence (👨‍👩‍👧).
const JOINING_SCRIPT =
  /[\p{sc=Arabic}\p{sc=Syriac}\p{sc=Nko}\p{sc=Mongolian}\p{sc=Devanagari}\p{sc=Bengali}\p{sc=Gurmukhi}\p{sc=Gujarati}\p{sc=Oriya}\p{sc=Tamil}\p{sc=Telugu}\p{sc=Kannada}\p{sc=Malayalam}\p{sc=Sinhala}\p{sc=Khmer}\p{sc=Myanmar}]/u
const EMOJI_BEFORE = /\p{Extended_Pictographic}[\uFE0F\u{1F3FB}-\u{1F3FF}]?$/u
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u

/**
 * Parses an agent path purely by its text. A relative path is taken relative to `/`.
 * Throws PathRefusedError naming the broken rule; never touches the disk.
 */
export function parseAgentPath(given: unknown): ParsedAgentPath {
  if (typeof given !== 'string') refuse('not-a-string', 'a path must be text like "/notes/a.txt".')
  if (given.length === 0) refuse('empty-path', 'the path is empty; use "/" for the workspace root.')
  if (!given.isWellFormed()) refuse('invalid-unicode', 'the path contains broken Unicode text.')
  // One spelling per name: "e\u0301" (e + combining accent) and "é" name the same file.
  const input = given.normalize('NFC')
  checkWholePath(input)
  const segments: string[] = []
  for (const part of input.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') {
      if (segments.length === 0)
        refuse('leaves-root', '".." would leave the workspace root "/"; stay inside it.')
      segments.pop()
      continue
    }
    checkName(part)
    segments.push(part)
  }
  return { path: `/${segments.join('/')}`, segments }
}

function checkWholePath(input: string): void {
  if (CONTROL.test(input))
    refuse('control-character', 'the path contains a NUL, control or line-break character.')
  checkInvisible(input)
  if (Buffer.byteLength(input, 'utf8') > MAX_PATH_BYTES) {
    refuse('path-too-long', `the path is longer than ${MAX_PATH_BYTES} bytes.`)
  }
  if (/^[\\/]{2}/.test(input)) {
    refuse('unc-path', 'network (UNC) paths are not allowed; use a path inside the workspace like "/a.txt".')
  }
  if (/^[a-z]:/i.test(input)) {
    refuse('drive-letter', 'drive letters are host paths; the workspace root is "/", e.g. "/notes/a.txt".')
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(input)) {
    refuse('url-scheme', 'URLs such as file:// are not paths; use a workspace path like "/notes/a.txt".')
  }
  if (input.includes('\\')) refuse('backslash', 'use "/" to separate folders, not "\\".')
  if (/%[0-9a-f]{2}/i.test(input)) {
    refuse('percent-encoding', 'paths are not URL-encoded; write the plain characters instead of %xx.')
  }
  if (input.startsWith('~')) {
    refuse('home-shortcut', '"~" is not the workspace; the workspace root is "/".')
  }
}

/** Refuses bidi controls and invisible characters (ZWNJ/ZWJ only where they are ordinary text). */
function checkInvisible(input: string): void {
  const bidi = BIDI.exec(input)
  if (bidi) {
    refuse(
      'bidi-control',
      `the path contains the bidirectional control ${codePoint(bidi[0])}, which changes how a name is displayed; remove it.`,
    )
  }
  const withoutJoiners = input.replace(ZERO_WIDTH_JOINERS, (joiner, offset: number) =>
    joinerIsText(input, joiner, offset) ? '' : joiner,
  )
  const invisible = INVISIBLE.exec(withoutJoiners)
  if (invisible) {
    refuse(
      'invisible-character',
      `the path contains the invisible character ${codePoint(invisible[0])}, so two names could look the same; remove it.`,
    )
  }
}

function joinerIsText(input: string, joiner: string, offset: number): boolean {
  const before = input.slice(0, offset)
  const after = input.slice(offset + joiner.length)
  if (joiner === '\u200D' && EMOJI_BEFORE.test(before) && EMOJI_AFTER.test(after)) return true
  const previous = [...before].at(-1)
  const next = [...after][0]
  return (
    previous !== undefined &&
    next !== undefined &&
    (JOINING_SCRIPT.test(previous) || /\p{M}/u.test(previous)) &&
    JOINING_SCRIPT.test(next)
  )
}

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
}

/** True when the canonical path is `.bureau` or inside it (compared case- and look-alike-insensitively). */
export function isInternalPath(parsed: ParsedAgentPath): boolean {
  const first = parsed.segments[0]
  return first !== undefined && isInternalName(first)
}

/** Joins a parent agent path and a child name into canonical form. */
export function joinAgent(parent: string, name: string): string {
  return parent === '/' ? `/${name}` : `${parent}/${name}`
}

export function parentOf(agentPath: string): string {
  const index = agentPath.lastIndexOf('/')
  return index <= 0 ? '/' : agentPath.slice(0, index)
}

export function baseName(agentPath: string): string {
  return agentPath.slice(agentPath.lastIndexOf('/') + 1)
}
