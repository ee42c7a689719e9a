import { execFileSync } from 'node:child_process'
import { appendFileSync, existsSync, statSync } from 'node:fs'
import { delimiter, isAbsolute, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, it } from 'vitest'

// One way for every suite to say what it needs from outside the repository: a system program (Chromium,
// LibreOffice, Dovecot, …) or other projects' files (the `../shared` folder). Missing and BUREAU_CI unset:
// the suite skips with one printed line, and the line is recorded so `npm test` can end with a summary and
// the one `apt-get install` that brings everything. Under BUREAU_CI (set by .ci/run, which installs it all)
// a missing requirement fails.

export interface SystemProgram {
  /** What the summary calls it. */
  label: string
  /** The Debian packages that bring it. */
  apt: string[]
  /** Its path (or a marker) when present on this machine. */
  find(): string | undefined
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    const full = join(dir, name)
    if (existsSync(full)) return full
  }
  return undefined
}

/** A program found on PATH, or at one of the fixed paths Debian installs it at (when PATH allows `/usr/bin`). */
function program(names: string[], fixed: string[] = []): () => string | undefined {
  return () => {
    for (const name of names) {
      const found = onPath(name)
      if (found) return found
    }
    // Fixed paths count only where PATH would reach them, so a test run with a trimmed PATH sees a bare machine.
    const pathDirs = (process.env.PATH ?? '').split(delimiter)
    return fixed.find((path) => existsSync(path) && pathDirs.some((dir) => path.startsWith(`${dir}/`)))
  }
}

function pythonModule(module: string): () => string | undefined {
  return () => {
    // Debian's interpreter, not the first python3 on PATH: Debian's modules live only there.
    const python = program([], ['/usr/bin/python3'])()
    if (!python) return undefined
    try {
      execFileSync(python, ['-c', `import ${module}`], { stdio: 'ignore', timeout: 20_000 })
      return `${python} (${module})`
    } catch {
      return undefined
    }
  }
}

export const PROGRAMS = {
  chromium: {
    label: 'Chromium',
    apt: ['chromium'],
    find: () => {
      const wanted = process.env.BUREAU_CHROMIUM
      if (wanted) return existsSync(wanted) ? wanted : undefined
      return program(['chromium', 'chromium-browser'], ['/usr/bin/chromium'])()
    },
  },
  soffice: {
    label: 'LibreOffice',
    apt: ['libreoffice-calc-nogui', 'libreoffice-writer-nogui', 'libreoffice-impress-nogui'],
    find: program(['soffice'], ['/usr/bin/soffice', '/usr/local/bin/soffice']),
  },
  espeak: { label: 'espeak-ng', apt: ['espeak-ng'], find: program(['espeak-ng']) },
  pdftotext: {
    label: 'poppler-utils (pdftotext, pdfinfo)',
    apt: ['poppler-utils'],
    find: program(['pdftotext']),
  },
  pandoc: { label: 'pandoc', apt: ['pandoc'], find: program(['pandoc']) },
  dovecot: {
    label: 'Dovecot',
    apt: ['dovecot-imapd'],
    find: () => {
      const wanted = process.env.BUREAU_DOVECOT
      if (wanted) return existsSync(wanted) ? wanted : undefined
      return program(['dovecot'], ['/usr/sbin/dovecot', '/usr/local/sbin/dovecot'])()
    },
  },
  radicale: {
    label: 'Radicale',
    apt: ['radicale'],
    find: pythonModule('radicale'),
  },
  openpyxl: { label: "Debian's python3-openpyxl", apt: ['python3-openpyxl'], find: pythonModule('openpyxl') },
  pandas: { label: "Debian's python3-pandas", apt: ['python3-pandas'], find: pythonModule('pandas') },
  pythonDocx: { label: "Debian's python3-docx", apt: ['python3-docx'], find: pythonModule('docx') },
  festival: { label: 'Festival', apt: ['festival', 'festvox-us-slt-hts'], find: program(['festival']) },
  pocketsphinx: {
    label: 'PocketSphinx',
    apt: ['pocketsphinx', 'pocketsphinx-en-us'],
    find: program(['pocketsphinx_continuous']),
  },
  sox: { label: 'SoX', apt: ['sox'], find: program(['sox']) },
} satisfies Record<string, SystemProgram>

export type ProgramName = keyof typeof PROGRAMS

/** True under .ci/run (and other CI), where everything is installed and a missing requirement is a failure. */
export const REQUIREMENTS_ENFORCED = Boolean(process.env.BUREAU_CI || process.env.CI)

const found = new Map<ProgramName, string | undefined>()

/** The program's path on this machine (cached per process), or undefined. */
export function findProgram(name: ProgramName): string | undefined {
  if (!found.has(name)) found.set(name, PROGRAMS[name].find())
  return found.get(name)
}

/** The folder of other projects' files: BUREAU_THIRD_PARTY_DIR, or `../shared` beside the checkout. */
export function thirdPartyDir(): string {
  const repoRoot = fileURLToPath(new URL('../../', import.meta.url))
  const configured = process.env.BUREAU_THIRD_PARTY_DIR
  if (configured) return isAbsolute(configured) ? configured : resolve(repoRoot, configured)
  return resolve(repoRoot, '..', 'shared')
}

/** The path of a third-party file or folder (`thirdPartyPath('corpus', 'convert', 'test.docx')`), or undefined. */
export function findThirdParty(...parts: string[]): string | undefined {
  const full = join(thirdPartyDir(), ...parts)
  return existsSync(full) ? full : undefined
}

/** Like findThirdParty, but throws: for code that runs only inside a suite that already checked the folder. */
export function thirdPartyPath(...parts: string[]): string {
  const full = findThirdParty(...parts)
  if (!full) throw new Error(`Third-party file missing: ${join(thirdPartyDir(), ...parts)}`)
  return full
}

export type Requirement = ProgramName | { thirdParty: string }

function describeRequirement(requirement: Requirement): { missing: boolean; reason: string; apt: string[] } {
  if (typeof requirement === 'string') {
    const spec = PROGRAMS[requirement]
    const missing = !findProgram(requirement)
    return {
      missing,
      reason: `${spec.label} is not installed (apt-get install ${spec.apt.join(' ')})`,
      apt: spec.apt,
    }
  }
  const folder = join(thirdPartyDir(), requirement.thirdParty)
  const missing = !existsSync(folder) || !statSync(folder).isDirectory()
  return {
    missing,
    reason: `the third-party folder ${folder} is absent (set BUREAU_THIRD_PARTY_DIR to the folder holding ${requirement.thirdParty}/)`,
    apt: [],
  }
}

/** The requirements that are missing here, with a one-line reason each. */
export function missingRequirements(requirements: Requirement[]): { reason: string; apt: string[] }[] {
  return requirements.map(describeRequirement).filter((r) => r.missing)
}

/** Records a skip for the summary `npm test` prints at its end (scripts/testSummary.js reads the file). */
export function recordSkip(suite: string, reasons: { reason: string; apt: string[] }[]): void {
  const log = process.env.BUREAU_SKIP_LOG
  const line = `${suite}: skipped, ${reasons.map((r) => r.reason).join('; ')}`
  console.log(line)
  if (!log) return
  try {
    appendFileSync(log, `${JSON.stringify({ suite, reasons })}\n`)
  } catch {
    // The summary is a courtesy; a test run does not fail because its log folder went away.
  }
}

/**
 * `describe` that runs only where every requirement is present. Missing: skipped with a printed, recorded
 * reason, or, under BUREAU_CI, one failing test that names what is missing.
 */
export function describeNeeding(requirements: Requirement[], name: string, body: () => void): void {
  const missing = missingRequirements(requirements)
  if (missing.length === 0) {
    describe(name, () => body())
    return
  }
  if (REQUIREMENTS_ENFORCED) {
    describe(name, () => {
      it('has what it needs (CI installs it)', () => {
        throw new Error(`${name}: ${missing.map((m) => m.reason).join('; ')}`)
      })
    })
    return
  }
  recordSkip(name, missing)
  describe.skip(name, () => body())
}

/** For code that needs to decide outside `describe` (e.g. a Playwright spec): the skip reason, or undefined. */
export function skipReason(suite: string, requirements: Requirement[]): string | undefined {
  const missing = missingRequirements(requirements)
  if (missing.length === 0) return undefined
  if (REQUIREMENTS_ENFORCED) throw new Error(`${suite}: ${missing.map((m) => m.reason).join('; ')}`)
  recordSkip(suite, missing)
  return missing.map((m) => m.reason).join('; ')
}
