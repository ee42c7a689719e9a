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

// Cc (controls, incl. NUL and C1), Cf (format: bidi overrides, zero-width, BOM), line/paragraph separators.
// ZWNJ/ZWJ are allowed: they are part of ordinary Persian, Indic and emoji text.
const INVISIBLE = /[\p{Cc}\p{Zl}\p{Zp}]|(?![\u200C\u200D])\p{Cf}/u

/**
 * Parses an agent path purely by its text. A relative path is taken relative to `/`.
 * Throws PathRefusedError naming the broken rule; never touches the disk.
 */
export function parseAgentPath(input: unknown): ParsedAgentPath {
  if (typeof input !== 'string') refuse('not-a-string', 'a path must be text like "/notes/a.txt".')
  if (input.length === 0) refuse('empty-path', 'the path is empty; use "/" for the workspace root.')
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
  if (!input.isWellFormed()) refuse('invalid-unicode', 'the path contains broken Unicode text.')
  if (INVISIBLE.test(input)) {
    refuse('control-character', 'the path contains a NUL, control or invisible formatting character.')
  }
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
